import {
  type AdminUser,
  CREDIT_AMOUNT_MAX,
  CREDIT_OPERATIONS,
  type CreditOperation,
  type CreditOperationBody,
  EXTEND_DAYS_MAX,
} from '@aiplatform/contracts';
import { Alert, Button, Descriptions, Flex, Form, InputNumber, Modal, Radio, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ReasonField } from '../shared/ReasonField';
import { call, idempotencyHeaders } from '../../../api/call';
import { adminKeys, queryKeys } from '../../../api/query-keys';
import { formatDateTime, formatNumber } from '../../../components/common/format';
import { useAdminMutation } from '../shared/use-admin-mutation';
import { useIdempotencyKey } from '../shared/use-idempotency-key';
import { useOverlaySize } from '../shared/use-overlay-size';
import { previewCredits } from './credit-preview';

interface CreditModalProps {
  user: AdminUser | null;
  open: boolean;
  onClose: () => void;
  afterClose: () => void;
}

interface CreditValues {
  operation: CreditOperation;
  amount: number | null;
  reason: string;
  extend_days: number | null;
}

const OPERATION_KEYS: Record<CreditOperation, string> = {
  add: 'admin:credits.operation.add',
  deduct: 'admin:credits.operation.deduct',
  set: 'admin:credits.operation.set',
};

/** Add, deduct or set a user's balance; mounted per opening so each opening has its own idempotency key. */
function CreditForm({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [form] = Form.useForm<CreditValues>();
  const { key, renewAfter } = useIdempotencyKey();
  const operation = Form.useWatch('operation', form) ?? 'add';
  const amount = Form.useWatch('amount', form);
  const balance = user.credits_stats.remaining;
  const preview = previewCredits(balance, operation, amount);
  const adjust = useAdminMutation({
    mutationFn: (body: CreditOperationBody) =>
      call('adjustCredits', { params: { id: user.id }, body, headers: idempotencyHeaders(key) }),
    invalidates: [adminKeys.users, queryKeys.me],
    successText: ({ transaction }, body) => {
      const values = {
        name: user.username,
        amount: formatNumber(body.amount, lang),
        balance: formatNumber(transaction.balance_after, lang),
      };
      switch (body.operation) {
        case 'add':
          return t('admin:credits.done.add', values);
        case 'deduct':
          return t('admin:credits.done.deduct', values);
        case 'set':
          return t('admin:credits.done.set', values);
      }
    },
    failureKey: 'admin:credits.failed',
    onSuccess: onClose,
  });

  const submit = (values: CreditValues) => {
    const body: CreditOperationBody = {
      operation: values.operation,
      amount: values.amount ?? 0,
      reason: values.reason.trim(),
      ...(values.extend_days ? { extend_days: values.extend_days } : {}),
    };
    adjust.mutate(body, { onError: renewAfter });
  };

  return (
    <Form<CreditValues>
      form={form}
      layout="vertical"
      initialValues={{ operation: 'add', amount: null, reason: '', extend_days: 0 }}
      onFinish={submit}
    >
      <Descriptions
        size="small"
        column={1}
        style={{ marginBottom: 16 }}
        items={[
          { key: 'user', label: t('admin:credits.user'), children: `${user.username} (${user.email})` },
          { key: 'balance', label: t('admin:credits.balance'), children: formatNumber(balance, lang) },
          {
            key: 'expiry',
            label: t('admin:credits.expiresAt'),
            children: user.credits_expire_at
              ? formatDateTime(user.credits_expire_at, lang)
              : t('admin:credits.noExpiry'),
          },
        ]}
      />
      <Form.Item name="operation" label={t('admin:credits.operationLabel')}>
        <Radio.Group
          optionType="button"
          buttonStyle="solid"
          options={CREDIT_OPERATIONS.map((op) => ({ value: op, label: t(OPERATION_KEYS[op]) }))}
          data-testid="credit-operation"
        />
      </Form.Item>
      <Form.Item
        name="amount"
        label={operation === 'set' ? t('admin:credits.newBalance') : t('admin:credits.amount')}
        rules={[
          { required: true, message: t('validation:amount.invalid') },
          {
            validator: async (_rule, value: number | null) => {
              if (operation !== 'set' && value === 0) throw new Error(t('validation:amount.positive'));
            },
          },
        ]}
      >
        <InputNumber
          min={0}
          max={CREDIT_AMOUNT_MAX}
          precision={0}
          style={{ width: '100%' }}
          data-testid="credit-amount"
        />
      </Form.Item>
      <ReasonField label={t('admin:credits.reason')} testId="credit-reason" />
      <Form.Item name="extend_days" label={t('admin:credits.extendDays')} extra={t('admin:credits.extendDaysHint')}>
        <InputNumber
          min={0}
          max={EXTEND_DAYS_MAX}
          precision={0}
          style={{ width: '100%' }}
          data-testid="credit-extend-days"
        />
      </Form.Item>
      <Alert
        type={preview.exceedsBalance ? 'error' : 'info'}
        showIcon
        title={
          <span data-testid="credit-preview">
            {t('admin:credits.preview', { from: formatNumber(balance, lang), to: formatNumber(preview.after, lang) })}
          </span>
        }
        description={
          preview.exceedsBalance ? (
            <Typography.Text type="danger" data-testid="credit-exceeds">
              {t('admin:credits.exceedsBalance')}
            </Typography.Text>
          ) : undefined
        }
        style={{ marginBottom: 16 }}
      />
      <Flex justify="end" gap={8}>
        <Button onClick={onClose}>{t('common:cancel')}</Button>
        <Button
          type="primary"
          htmlType="submit"
          loading={adjust.isPending}
          disabled={preview.exceedsBalance}
          data-testid="credit-submit"
        >
          {t('admin:credits.submit')}
        </Button>
      </Flex>
    </Form>
  );
}

/** The credit dialog for one user. */
export function CreditModal({ user, open, onClose, afterClose }: CreditModalProps) {
  const { t } = useTranslation();
  const { modalWidth } = useOverlaySize(520);
  return (
    <Modal
      open={open && user !== null}
      title={t('admin:credits.title')}
      footer={null}
      onCancel={onClose}
      afterClose={afterClose}
      width={modalWidth}
      destroyOnHidden
      data-testid="credit-modal"
    >
      {user && <CreditForm user={user} onClose={onClose} />}
    </Modal>
  );
}

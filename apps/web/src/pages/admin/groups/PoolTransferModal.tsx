import {
  type AdminUser,
  CREDIT_AMOUNT_MAX,
  type DistributeCreditsBody,
  type Group,
  POOL_OPERATIONS,
} from '@aiplatform/contracts';
import { Alert, Button, Flex, Form, InputNumber, Modal, Radio } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ReasonField } from '../shared/ReasonField';
import { call, idempotencyHeaders } from '../../../api/call';
import { adminKeys, queryKeys } from '../../../api/query-keys';
import { formatNumber } from '../../../components/common/format';
import { UserPicker } from '../shared/UserPicker';
import { useAdminMutation } from '../shared/use-admin-mutation';
import { useIdempotencyKey } from '../shared/use-idempotency-key';
import { useOverlaySize } from '../shared/use-overlay-size';
import { previewPoolTransfer } from './pool-preview';
import { type PoolOperation, poolTransferProblem } from './pool-transfer-check';

interface TransferValues {
  operation: PoolOperation;
  user_id?: number;
  amount: number | null;
  reason: string;
}

const OPERATION_KEYS: Record<PoolOperation, string> = {
  distribute: 'admin:pool.distribute',
  reclaim: 'admin:pool.reclaim',
};

interface TransferTarget {
  group: Group;
  /** A member chosen from the member list, preselected in the form. */
  member?: AdminUser;
}

/** Moves credits from the pool to a member or back; mounted per opening, with its own idempotency key. */
function TransferForm({ group, member, onClose }: TransferTarget & { onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [form] = Form.useForm<TransferValues>();
  const { key, renewAfter } = useIdempotencyKey();
  const [chosen, setChosen] = useState<AdminUser | undefined>(member);
  const operation = Form.useWatch('operation', form) ?? 'distribute';
  const amount = Form.useWatch('amount', form);
  const problem = poolTransferProblem(operation, amount, group.credits_pool_remaining, chosen?.credits_stats.remaining);
  const preview = previewPoolTransfer(operation, amount, group.credits_pool_remaining, chosen?.credits_stats.remaining);
  const figure = (value: number) => formatNumber(value, lang);
  const transfer = useAdminMutation({
    mutationFn: (body: DistributeCreditsBody) =>
      call('distributeCredits', { params: { id: group.id }, body, headers: idempotencyHeaders(key) }),
    invalidates: [adminKeys.groups, adminKeys.users, queryKeys.me],
    successText: (result, body) => {
      const values = {
        amount: formatNumber(body.amount, lang),
        name: result.user.username,
        group: result.group.name,
        pool: formatNumber(result.group.credits_pool_remaining, lang),
        balance: formatNumber(result.transaction.balance_after, lang),
      };
      return body.operation === 'reclaim'
        ? t('admin:pool.reclaimedDone', values)
        : t('admin:pool.distributedDone', values);
    },
    failureKey: 'admin:pool.transferFailed',
    onSuccess: onClose,
  });

  const submit = (values: TransferValues) =>
    transfer.mutate(
      {
        operation: values.operation,
        user_id: values.user_id ?? 0,
        amount: values.amount ?? 0,
        reason: values.reason.trim(),
      },
      { onError: renewAfter },
    );

  return (
    <Form<TransferValues>
      form={form}
      layout="vertical"
      initialValues={{ operation: 'distribute', user_id: member?.id, amount: null, reason: '' }}
      onFinish={submit}
    >
      <Form.Item name="operation" label={t('admin:pool.operation')}>
        <Radio.Group
          optionType="button"
          buttonStyle="solid"
          options={POOL_OPERATIONS.map((op) => ({ value: op, label: t(OPERATION_KEYS[op]) }))}
          data-testid="pool-operation"
        />
      </Form.Item>
      <Form.Item
        name="user_id"
        label={t('admin:pool.member')}
        rules={[{ required: true, message: t('validation:user.required') }]}
      >
        <UserPicker
          groupId={group.id}
          ableTo="pool.transfer"
          showBalance
          selectedUser={chosen}
          onSelectUser={setChosen}
          testId="pool-member"
        />
      </Form.Item>
      <Form.Item
        name="amount"
        label={t('admin:pool.amount')}
        rules={[
          { required: true, message: t('validation:amount.invalid') },
          { type: 'number', min: 1, message: t('validation:amount.positive') },
        ]}
      >
        <InputNumber
          min={1}
          max={CREDIT_AMOUNT_MAX}
          precision={0}
          style={{ width: '100%' }}
          data-testid="pool-amount"
        />
      </Form.Item>
      <ReasonField label={t('admin:pool.reason')} testId="pool-reason" />
      <Alert
        type={problem ? 'error' : 'info'}
        showIcon
        style={{ marginBottom: 16 }}
        title={
          <span data-testid="pool-preview">
            {t('admin:pool.poolPreview', { from: figure(preview.pool.from), to: figure(preview.pool.to) })}
            {chosen &&
              preview.member &&
              ` · ${t('admin:pool.memberPreview', { name: chosen.username, from: figure(preview.member.from), to: figure(preview.member.to) })}`}
          </span>
        }
        description={
          problem === 'poolShort'
            ? t('admin:pool.poolShort')
            : problem === 'memberShort'
              ? t('admin:pool.memberShort')
              : operation === 'reclaim'
                ? t('admin:pool.reclaimRule')
                : undefined
        }
      />
      <Flex justify="end" gap={8}>
        <Button onClick={onClose}>{t('common:cancel')}</Button>
        <Button
          type="primary"
          htmlType="submit"
          loading={transfer.isPending}
          disabled={problem !== null}
          data-testid="pool-submit"
        >
          {t('admin:pool.submit')}
        </Button>
      </Flex>
    </Form>
  );
}

interface PoolTransferModalProps {
  target: TransferTarget | null;
  open: boolean;
  onClose: () => void;
  afterClose: () => void;
}

export function PoolTransferModal({ target, open, onClose, afterClose }: PoolTransferModalProps) {
  const { t } = useTranslation();
  const { modalWidth } = useOverlaySize(520);
  return (
    <Modal
      open={open && target !== null}
      title={target ? t('admin:pool.transferTitle', { group: target.group.name }) : ''}
      footer={null}
      onCancel={onClose}
      afterClose={afterClose}
      width={modalWidth}
      destroyOnHidden
      data-testid="pool-modal"
    >
      {target && (
        <TransferForm group={target.group} {...(target.member ? { member: target.member } : {})} onClose={onClose} />
      )}
    </Modal>
  );
}

export type { TransferTarget };

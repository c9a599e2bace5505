import type { LegalHoldSubject } from '@aiplatform/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Form, Input, Modal, Radio, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call, callPage } from '../../../api/call';
import { adminKeys } from '../../../api/query-keys';
import { useAdminMutation } from '../shared/use-admin-mutation';

interface PlaceValues {
  subject_type: LegalHoldSubject;
  subject_id: number;
  reason: string;
}

/** The users or groups to choose from: users found by a search, every group. */
function useSubjectOptions(kind: LegalHoldSubject, search: string) {
  const userQuery = { page: 1, limit: 20, search: search || undefined, sort: 'username' };
  const users = useQuery({
    queryKey: adminKeys.userList(userQuery),
    queryFn: () => callPage('listUsers', { query: userQuery }),
    enabled: kind === 'user',
    placeholderData: keepPreviousData,
  });
  const groupQuery = { page: 1, limit: 100 };
  const groups = useQuery({
    queryKey: adminKeys.groupList(groupQuery),
    queryFn: () => callPage('listGroups', { query: groupQuery }),
    enabled: kind === 'group',
  });
  if (kind === 'user')
    return {
      loading: users.isFetching,
      options: (users.data?.items ?? []).map((u) => ({ value: u.id, label: `${u.username} (${u.email})` })),
    };
  return {
    loading: groups.isFetching,
    options: (groups.data?.items ?? []).map((g) => ({ value: g.id, label: g.name })),
  };
}

/** Places a hold on one user or group, with the reason it is required for. */
export function PlaceHoldModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<PlaceValues>();
  const kind = Form.useWatch('subject_type', form) ?? 'user';
  const [search, setSearch] = useState('');
  const { loading, options } = useSubjectOptions(kind, search);
  const place = useAdminMutation({
    mutationFn: (v: PlaceValues) => {
      const options = { params: { id: v.subject_id }, body: { on: true, reason: v.reason.trim() } };
      return v.subject_type === 'user' ? call('setUserLegalHold', options) : call('setGroupLegalHold', options);
    },
    invalidates: [adminKeys.legalHolds],
    successText: () => t('admin:legalHolds.placedDone'),
    failureKey: 'admin:legalHolds.placeFailed',
    onSuccess: onClose,
  });
  return (
    <Modal
      open={open}
      title={t('admin:legalHolds.placeTitle')}
      okText={t('admin:legalHolds.place')}
      cancelText={t('common:cancel')}
      confirmLoading={place.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'legal-hold-submit' }}
    >
      <Form<PlaceValues>
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ subject_type: 'user', reason: '' }}
        onFinish={(v) => place.mutate(v)}
        onValuesChange={(changed: Partial<PlaceValues>) => {
          if (changed.subject_type) form.setFieldValue('subject_id', undefined);
        }}
      >
        <Form.Item name="subject_type" label={t('admin:legalHolds.kindLabel')}>
          <Radio.Group
            optionType="button"
            options={[
              { value: 'user', label: t('admin:legalHolds.kind.user') },
              { value: 'group', label: t('admin:legalHolds.kind.group') },
            ]}
            data-testid="legal-hold-kind"
          />
        </Form.Item>
        <Form.Item
          name="subject_id"
          label={kind === 'user' ? t('admin:legalHolds.kind.user') : t('admin:legalHolds.kind.group')}
          rules={[{ required: true, message: t('admin:legalHolds.subjectRequired') }]}
        >
          <Select
            showSearch
            filterOption={kind === 'group'}
            optionFilterProp="label"
            onSearch={kind === 'user' ? setSearch : undefined}
            loading={loading}
            options={options}
            placeholder={t('admin:legalHolds.subjectPlaceholder')}
            data-testid="legal-hold-subject"
          />
        </Form.Item>
        <Form.Item
          name="reason"
          label={t('admin:legalHolds.reason')}
          rules={[{ required: true, whitespace: true, max: 500, message: t('validation:legalHold.reasonRequired') }]}
        >
          <Input.TextArea rows={3} maxLength={500} data-testid="legal-hold-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

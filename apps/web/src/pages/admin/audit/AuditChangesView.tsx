import type { AuditChanges } from '@aiplatform/contracts';
import { Col, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

function JsonBlock({ title, value, testId }: { title: string; value: Record<string, unknown> | null; testId: string }) {
  const { t } = useTranslation();
  return (
    <div>
      <Typography.Text strong>{title}</Typography.Text>
      <pre
        style={{
          margin: '4px 0 0',
          padding: 8,
          background: 'var(--surface-muted)',
          border: '1px solid var(--border-color)',
          borderRadius: 6,
          fontSize: 12,
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-all',
        }}
        data-testid={testId}
      >
        {value ? JSON.stringify(value, null, 2) : t('admin:audit.nothing')}
      </pre>
    </div>
  );
}

/** The changed fields before and after, side by side (stacked on phones). */
export function AuditChangesView({ changes }: { changes: AuditChanges }) {
  const { t } = useTranslation();
  return (
    <Row gutter={[16, 12]}>
      <Col xs={24} md={12}>
        <JsonBlock title={t('admin:audit.before')} value={changes.before} testId="audit-before" />
      </Col>
      <Col xs={24} md={12}>
        <JsonBlock title={t('admin:audit.after')} value={changes.after} testId="audit-after" />
      </Col>
    </Row>
  );
}

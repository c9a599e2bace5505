import type { UserImportReport } from '@aiplatform/contracts';
import { Alert, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { VALIDATION_JOINER } from '../../../components/common/report-error';
import { i18n } from '../../../i18n';

/** Row problems may come as message keys (`validation.email.invalid`) or as text; keys are translated. */
function problemText(problem: string): string {
  const dot = problem.indexOf('.');
  if (dot > 0 && !/\s/.test(problem)) {
    const key = `${problem.slice(0, dot)}:${problem.slice(dot + 1)}`;
    if (i18n.exists(key)) return i18n.t(key);
  }
  return problem;
}

type RowProblems = UserImportReport['errors'][number];

/** The outcome of checking an import file: counts, then one line per bad row. */
export function ImportReportView({ report }: { report: UserImportReport }) {
  const { t } = useTranslation();
  const bad = report.errors.length;
  return (
    <div data-testid="import-report">
      {bad === 0 ? (
        <Alert
          type="success"
          showIcon
          title={t('admin:import.allValid', { total: report.total })}
          style={{ marginBottom: 12 }}
        />
      ) : (
        <Alert
          type="error"
          showIcon
          title={t('admin:import.someInvalid', { total: report.total, valid: report.valid, bad })}
          description={t('admin:import.fixAndRetry')}
          style={{ marginBottom: 12 }}
        />
      )}
      {bad > 0 && (
        <Table<RowProblems>
          rowKey="row"
          size="small"
          dataSource={report.errors}
          pagination={bad > 10 ? { pageSize: 10, size: 'small' } : false}
          columns={[
            { key: 'row', title: t('admin:import.row'), dataIndex: 'row', width: 80 },
            {
              key: 'errors',
              title: t('admin:import.problems'),
              render: (_, row) => row.errors.map(problemText).join(VALIDATION_JOINER),
            },
          ]}
          data-testid="import-errors-table"
        />
      )}
    </div>
  );
}

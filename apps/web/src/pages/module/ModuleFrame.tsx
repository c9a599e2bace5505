import type { UserModule } from '@aiplatform/contracts';
import { ExportOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Result, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchModuleAuthUrl } from '../../api/modules';
import { queryKeys } from '../../api/query-keys';
import { safeExternalUrl } from '../../components/common/safe-url';
import { openModuleInNewTab } from '../../components/layout/open-module-tab';

/**
 * What the framed module may do: run its own scripts and forms, keep its own origin
 * (cookies, storage), open popups and downloads. Never navigate this page.
 */
const FRAME_SANDBOX = 'allow-scripts allow-forms allow-same-origin allow-popups allow-downloads';

/** A module shown inside the content area, signed in through its per-visit URL. */
export function ModuleFrame({ module }: { module: UserModule }) {
  const { t } = useTranslation();
  const [loaded, setLoaded] = useState(false);
  // One signed URL per visit: not shared with a later visit (gcTime 0) and never
  // re-fetched while the frame is open, which would reload the module and lose its state.
  const auth = useQuery({
    queryKey: queryKeys.moduleAuthUrl(module.name),
    queryFn: () => fetchModuleAuthUrl(module.name),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
  const src = auth.data ? safeExternalUrl(auth.data.url) : '';

  let body;
  if (auth.isError || (auth.data && !src)) {
    body = (
      <Result
        status="error"
        title={t('pages:module.authFailed')}
        subTitle={t('pages:module.authFailedHint')}
        extra={
          <Button type="primary" onClick={() => void auth.refetch()} data-testid="module-retry">
            {t('common:retry')}
          </Button>
        }
        data-testid="module-error"
      />
    );
  } else {
    body = (
      <div className="module-frame-box">
        {src && (
          <iframe
            className="module-frame"
            title={module.display_name}
            src={src}
            sandbox={FRAME_SANDBOX}
            referrerPolicy="no-referrer"
            onLoad={() => setLoaded(true)}
            data-testid="module-frame"
          />
        )}
        {!loaded && (
          <div className="module-frame-loading" data-testid="module-loading">
            <Spin size="large" description={t('pages:module.frameLoading')} />
          </div>
        )}
      </div>
    );
  }

  return (
    <section className="module-page" aria-label={module.display_name} data-testid="module-page">
      <div className="module-toolbar">
        <Typography.Title level={4} style={{ margin: 0 }} ellipsis>
          {module.display_name}
        </Typography.Title>
        <Button
          type="link"
          icon={<ExportOutlined />}
          onClick={() => void openModuleInNewTab(module.name)}
          data-testid="module-open-new-tab"
        >
          {t('pages:module.openInNewTab')}
        </Button>
      </div>
      {body}
    </section>
  );
}

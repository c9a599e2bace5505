import { DOCUMENT_LIMITS } from '@aiplatform/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Drawer, Empty, Spin } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { filesApi } from '../../api/documents';
import { documentKeys } from '../../api/document-keys';
import { errorText } from '../common/report-error';
import { useIsMobile } from '../layout/use-is-mobile';
import { findPassage, targetPage } from './passage-highlight';
import './documents.css';

/** What the drawer opens: a document, and for a citation the page and passage to show. */
export interface TextTarget {
  fileId: string;
  name: string;
  page?: number | null;
  snippet?: string;
}

/**
 * Says how many pages have no text (a scan read without OCR, a blank page); for a PDF, that
 * scanned pages need OCR on the server and how many of them it reads.
 */
function EmptyPagesNote({ pages, name }: { pages: readonly { text: string }[]; name: string }) {
  const { t } = useTranslation();
  const empty = pages.filter((p) => !p.text.trim()).length;
  if (empty === 0) return null;
  const key = /\.pdf$/i.test(name) ? 'chat:documents.emptyPagesScan' : 'chat:documents.emptyPages';
  return (
    <Alert
      className="file-text-empty-note"
      type="info"
      showIcon
      title={t(key, { empty, total: pages.length, max: DOCUMENT_LIMITS.ocrMaxPages })}
      data-testid="file-text-empty-note"
    />
  );
}

function PageText({ text, snippet, markRef }: { text: string; snippet?: string; markRef?: React.Ref<HTMLElement> }) {
  const { t } = useTranslation();
  if (!text.trim()) return <div className="file-text-body is-empty">{t('chat:documents.emptyPage')}</div>;
  const range = snippet ? findPassage(text, snippet) : null;
  if (!range) return <div className="file-text-body">{text}</div>;
  return (
    <div className="file-text-body">
      {text.slice(0, range.start)}
      <mark ref={markRef} data-testid="file-text-highlight">
        {text.slice(range.start, range.end)}
      </mark>
      {text.slice(range.end)}
    </div>
  );
}

/**
 * A document's extracted text, page by page. Opened from a citation it scrolls to the cited
 * page with the passage marked; opened from a chip it starts at the top.
 */
export function FileTextDrawer({ target, onClose }: { target: TextTarget | null; onClose: () => void }) {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const fileId = target?.fileId ?? '';
  const text = useQuery({
    queryKey: documentKeys.text(fileId),
    queryFn: () => filesApi.text(fileId),
    enabled: Boolean(target),
    staleTime: 60_000,
  });
  const pages = text.data?.pages ?? [];
  const shownPage = target ? targetPage(pages, target.page ?? null, target.snippet) : null;
  const markRef = useRef<HTMLElement>(null);
  const pageRef = useRef<HTMLElement>(null);

  useEffect(() => {
    if (!text.data || shownPage === null) return;
    // After the drawer's opening animation has laid the text out.
    const timer = window.setTimeout(() => {
      (markRef.current ?? pageRef.current)?.scrollIntoView({ block: 'center' });
    }, 50);
    return () => window.clearTimeout(timer);
  }, [text.data, shownPage, target?.snippet]);

  return (
    <Drawer
      open={Boolean(target)}
      onClose={onClose}
      title={target?.name}
      size={isMobile ? '100%' : 640}
      destroyOnHidden
      data-testid="file-text-drawer"
    >
      {text.isPending ? (
        <Spin />
      ) : text.isError ? (
        <Alert type="error" showIcon title={errorText(text.error, 'chat:documents.textFailed')} />
      ) : pages.length === 0 ? (
        <Empty description={t('chat:documents.noText')} />
      ) : (
        <>
          <EmptyPagesNote pages={pages} name={target?.name ?? ''} />
          {pages.map((p) => {
            const isTarget = p.page === shownPage;
            return (
              <section
                key={p.page}
                ref={isTarget ? pageRef : undefined}
                className={`file-text-page${isTarget ? ' is-target' : ''}`}
                data-testid="file-text-page"
                data-page={p.page}
                aria-current={isTarget ? 'true' : undefined}
              >
                <h3 className="file-text-page-title">{t('chat:documents.pageTitle', { page: p.page })}</h3>
                <PageText text={p.text} snippet={isTarget ? target?.snippet : undefined} markRef={markRef} />
              </section>
            );
          })}
        </>
      )}
    </Drawer>
  );
}

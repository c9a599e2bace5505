import { Skeleton } from 'antd';
import { Suspense, lazy } from 'react';

// The markdown renderer is large; the dashboard (everyone's first page) paints without
// waiting for it, and it loads only when there is an announcement to show.
const MarkdownContent = lazy(() =>
  import('../../components/chat/MarkdownContent').then((m) => ({ default: m.MarkdownContent })),
);

/** Announcement markdown (never raw HTML), rendered once the renderer has arrived. */
export function LazyMarkdown({ text }: { text: string }) {
  return (
    <Suspense fallback={<Skeleton active title={false} paragraph={{ rows: 2 }} />}>
      <MarkdownContent text={text} />
    </Suspense>
  );
}

import { Skeleton } from 'antd';
import { Suspense, lazy } from 'react';
import type { EChartProps } from './EChart';

const EChart = lazy(() => import('./EChart'));

/** A chart whose library loads on first use; a skeleton of the same height holds its place meanwhile. */
export function LazyChart(props: EChartProps) {
  const height = props.height ?? 280;
  return (
    <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height }} />}>
      <EChart {...props} />
    </Suspense>
  );
}

import { useEffect, useRef } from 'react';
import { useResolvedTheme } from '../../theme/theme-store';
import { usePrefersReducedMotion } from '../common/use-media-query';
import { chartOptionForTheme } from './chart-theme';
import { type ChartOption, echarts } from './echarts-setup';

export interface EChartProps {
  option: ChartOption;
  /** Pixel height; the width follows the container. */
  height?: number;
  /** Read by screen readers in place of the drawing. */
  ariaLabel: string;
  testId?: string;
}

/**
 * One echarts instance bound to a div: created on mount, given each new option,
 * resized with its container and disposed on unmount; made again with echarts' dark theme
 * (text, axes, tooltips) when the page turns dark. Loaded only through
 * `LazyChart`, so echarts never reaches the first bundle.
 */
export default function EChart({ option, height = 280, ariaLabel, testId }: EChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const reducedMotion = usePrefersReducedMotion();
  const theme = useResolvedTheme();

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const instance = echarts.init(el, theme === 'dark' ? 'dark' : undefined, { renderer: 'svg' });
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, [theme]);

  useEffect(() => {
    chart.current?.setOption(
      { aria: { enabled: true }, animation: !reducedMotion, ...chartOptionForTheme(option, theme) },
      { notMerge: true },
    );
  }, [option, reducedMotion, theme]);

  return <div ref={host} role="img" aria-label={ariaLabel} style={{ width: '100%', height }} data-testid={testId} />;
}

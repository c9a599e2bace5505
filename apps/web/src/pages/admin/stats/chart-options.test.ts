import type { UsageOverview } from '@aiplatform/contracts';
import { describe, expect, it } from 'vitest';
import {
  FALLBACK_GROUP_COLOR,
  SERIES_COLORS,
  activityChartOption,
  barChartHeight,
  barChartOption,
  barSummary,
  consumptionChartOption,
  groupBars,
  isEmptyOverview,
  legendWidth,
  modelBars,
  shortDay,
} from './chart-options';

const day = (date: string, n: number) => ({
  date,
  messages: 2 * n,
  tokens: 300 * n,
  credits: 10 * n,
  active_users: n,
  conversations: n,
});
const DAYS = [day('2025-03-01', 0), day('2025-03-02', 2), day('2025-03-03', 1)];

/** The parts of an option the tests read, without echarts' wide option types. */
interface Plain {
  aria: { enabled: boolean; label: { description: string } };
  xAxis: { data?: string[] };
  yAxis: { data?: string[] } | { name: string }[];
  series: { name: string; data: unknown[]; yAxisIndex?: number; color?: string }[];
}
const plain = (option: unknown) => option as Plain;

describe('daily charts', () => {
  it('label days by month and day, oldest first', () => {
    expect(shortDay('2025-03-01')).toBe('03-01');
    expect(shortDay('odd')).toBe('odd');
    const option = plain(
      activityChartOption(DAYS, { messages: 'M', activeUsers: 'U', conversations: 'C', description: 'D' }),
    );
    expect(option.xAxis.data).toEqual(['03-01', '03-02', '03-03']);
  });

  it('draw messages, active users and conversations on one axis', () => {
    const option = plain(
      activityChartOption(DAYS, { messages: 'M', activeUsers: 'U', conversations: 'C', description: 'D' }),
    );
    expect(option.series.map((s) => [s.name, s.data, s.yAxisIndex])).toEqual([
      ['M', [0, 4, 2], 0],
      ['U', [0, 2, 1], 0],
      ['C', [0, 2, 1], 0],
    ]);
    expect(option.aria).toEqual({ enabled: true, label: { description: 'D' } });
  });

  it('wrap a long legend on a phone and start the lines below it', () => {
    type Layout = { legend: { type: string }; grid: { top: number } };
    const long = {
      messages: 'Messages',
      activeUsers: 'Active users',
      conversations: 'New conversations',
      description: 'D',
    };
    const wide = activityChartOption(DAYS, long) as Layout;
    expect(wide.legend.type).toBe('plain');
    expect((activityChartOption(DAYS, long, { narrow: true }) as Layout).grid.top).toBeGreaterThan(wide.grid.top);
    // Three short Chinese names fit on one line: no gap above the lines.
    const short = { messages: '消息数', activeUsers: '活跃用户', conversations: '新建对话', description: 'D' };
    expect((activityChartOption(DAYS, short, { narrow: true }) as Layout).grid.top).toBe(wide.grid.top);
  });

  it('estimate a legend’s width, wide characters counted wider', () => {
    expect(legendWidth(['ab'])).toBe(14 + 38);
    expect(legendWidth(['积分'])).toBe(24 + 38);
  });

  it('give tokens their own axis beside credits', () => {
    const option = plain(consumptionChartOption(DAYS, { credits: 'Cr', tokens: 'Tk', description: 'D' }));
    expect((option.yAxis as { name: string }[]).map((axis) => axis.name)).toEqual(['Cr', 'Tk']);
    expect(option.series.map((s) => [s.name, s.data, s.yAxisIndex])).toEqual([
      ['Cr', [0, 20, 10], 0],
      ['Tk', [0, 600, 300], 1],
    ]);
    expect(option.series.map((s) => s.color)).toEqual([SERIES_COLORS.credits, SERIES_COLORS.tokens]);
  });
});

describe('breakdown charts', () => {
  const models = [
    { model_name: 'a', display_name: 'Model A', messages: 4, tokens: 900, credits: 20 },
    { model_name: 'b', display_name: '', messages: 10, tokens: 100, credits: 5 },
  ];

  it('rank models by the chosen measure, largest on top', () => {
    const byCredits = plain(barChartOption(modelBars(models, 'credits'), 'Credits', 'D'));
    // echarts draws the first category at the bottom.
    expect((byCredits.yAxis as { data: string[] }).data).toEqual(['b', 'Model A']);
    expect(byCredits.series[0]?.data).toEqual([
      { value: 5, itemStyle: { color: SERIES_COLORS.credits } },
      { value: 20, itemStyle: { color: SERIES_COLORS.credits } },
    ]);
    expect(byCredits.series[0]?.name).toBe('Credits');
    const byMessages = plain(barChartOption(modelBars(models, 'messages'), 'Messages', 'D'));
    expect((byMessages.yAxis as { data: string[] }).data).toEqual(['Model A', 'b']);
  });

  it('paint each group in its colour and name users outside any group', () => {
    const bars = groupBars(
      [
        {
          group_id: 1,
          group_name: 'Sales',
          group_color: '#ff0000',
          messages: 6,
          tokens: 1,
          credits: 30,
          active_users: 2,
        },
        { group_id: null, group_name: null, group_color: null, messages: 2, tokens: 1, credits: 10, active_users: 1 },
      ],
      'credits',
      'No group',
    );
    expect(bars).toEqual([
      { name: 'Sales', value: 30, color: '#ff0000' },
      { name: 'No group', value: 10, color: FALLBACK_GROUP_COLOR },
    ]);
    const option = plain(barChartOption(bars, 'Credits', 'D'));
    expect((option.yAxis as { data: string[] }).data).toEqual(['No group', 'Sales']);
    expect(option.aria.label.description).toBe('D');
  });

  it('read out largest first', () => {
    const bars = modelBars(models, 'tokens');
    expect(barSummary(bars, (n) => `<${n}>`)).toBe('Model A <900>, b <100>');
    expect(barSummary([], String)).toBe('');
  });

  it('space the value ticks out on a phone', () => {
    const tick = (narrow: boolean) =>
      (barChartOption(modelBars(models, 'credits'), 'Credits', 'D', { narrow }) as { xAxis: { splitNumber: number } })
        .xAxis.splitNumber;
    expect(tick(true)).toBeLessThan(tick(false));
  });

  it('grow with the number of bars within bounds', () => {
    expect(barChartHeight(0)).toBe(160);
    expect(barChartHeight(5)).toBe(220);
    expect(barChartHeight(100)).toBe(520);
  });
});

describe('empty range', () => {
  const overview = (messages: number): UsageOverview => ({
    time_zone: 'UTC',
    from: '2025-03-01',
    to: '2025-03-03',
    totals: { messages, tokens: 0, credits: 0, conversations: 0, active_users: 0 },
    days: DAYS,
    models: [],
    groups: [],
    top_users: [],
  });

  it('is recognised from the totals', () => {
    expect(isEmptyOverview(overview(0))).toBe(true);
    expect(isEmptyOverview(overview(2))).toBe(false);
  });
});

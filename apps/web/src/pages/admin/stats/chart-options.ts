import type { UsageOverview } from '@aiplatform/contracts';
import type { ChartOption } from '../../../components/charts/echarts-setup';

/*
 * Pure builders of the statistics charts' echarts options. Every text arrives already
 * translated, so the builders stay free of i18n and can be tested as plain data.
 */

type UsageDay = UsageOverview['days'][number];
type UsageByModel = UsageOverview['models'][number];
type UsageByGroup = UsageOverview['groups'][number];

/** The measures a breakdown chart can rank by. */
export const BREAKDOWN_METRICS = ['credits', 'messages', 'tokens'] as const;
export type BreakdownMetric = (typeof BREAKDOWN_METRICS)[number];

/**
 * Series colours with at least 3:1 contrast against white (lines and bars are graphics,
 * not text), distinct enough to tell apart in the legend.
 */
export const SERIES_COLORS = {
  messages: '#0958d9',
  activeUsers: '#237804',
  conversations: '#ad4e00',
  credits: '#531dab',
  tokens: '#006d75',
} as const;

/** A group without a colour of its own (and users outside any group). */
export const FALLBACK_GROUP_COLOR = '#595959';

/** Axis labels contained inside the drawing area. */
const GRID = { left: 8, right: 8, bottom: 8, containLabel: true };

/** Width a phone leaves a chart's legend: the screen less the page's and the card's padding. */
const PHONE_LEGEND_WIDTH = 300;

/** Rough pixel width of a legend: symbol and gap per entry, wide characters counted twice. */
export function legendWidth(names: readonly string[]): number {
  const text = names.reduce(
    (sum, name) => sum + [...name].reduce((w, c) => w + (c.charCodeAt(0) > 0x2e80 ? 12 : 7), 0),
    0,
  );
  return text + names.length * 38;
}

/**
 * The legend above the lines. On a phone its entries wrap onto a second line when they
 * do not fit (a paged legend would hide series behind arrows), and the lines start lower.
 */
function legendAndGrid(narrow: boolean, names: readonly string[]) {
  const wraps = narrow && legendWidth(names) > PHONE_LEGEND_WIDTH;
  return {
    legend: { top: 0, type: 'plain' as const, itemGap: narrow ? 8 : 10 },
    grid: { ...GRID, top: wraps ? 64 : 40 },
  };
}

/** `YYYY-MM-DD` shown as `MM-DD`: the year is in the range's heading, and 90 labels must fit. */
export function shortDay(date: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(date) ? date.slice(5) : date;
}

/** Whole numbers only: a fractional tick of a count ("0.5 messages") reads as a bug. */
const countAxis = (name: string) => ({
  type: 'value' as const,
  name,
  minInterval: 1,
  nameTextStyle: { align: 'left' },
});

/** What a screen reader announces instead of the drawing (echarts would write its own, in its own language). */
const aria = (description: string) => ({ enabled: true, label: { description } });

function lineSeries(name: string, data: number[], color: string, yAxisIndex = 0) {
  return {
    type: 'line' as const,
    name,
    data,
    yAxisIndex,
    color,
    symbol: 'circle',
    symbolSize: 5,
    // Show each day's dot only when few enough to be told apart.
    showSymbol: data.length <= 31,
  };
}

export interface ActivityLabels {
  messages: string;
  activeUsers: string;
  conversations: string;
  description: string;
}

/** How the chart will be shown: `narrow` on a phone. */
export interface ChartLayout {
  narrow: boolean;
}

/** Messages, active users and new conversations per day: counts of one kind on one axis. */
export function activityChartOption(
  days: readonly UsageDay[],
  labels: ActivityLabels,
  layout: ChartLayout = { narrow: false },
): ChartOption {
  return {
    aria: aria(labels.description),
    ...legendAndGrid(layout.narrow, [labels.messages, labels.activeUsers, labels.conversations]),
    tooltip: { trigger: 'axis' },
    xAxis: { type: 'category', boundaryGap: false, data: days.map((d) => shortDay(d.date)) },
    yAxis: countAxis(''),
    series: [
      lineSeries(
        labels.messages,
        days.map((d) => d.messages),
        SERIES_COLORS.messages,
      ),
      lineSeries(
        labels.activeUsers,
        days.map((d) => d.active_users),
        SERIES_COLORS.activeUsers,
      ),
      lineSeries(
        labels.conversations,
        days.map((d) => d.conversations),
        SERIES_COLORS.conversations,
      ),
    ],
  };
}

export interface ConsumptionLabels {
  credits: string;
  tokens: string;
  description: string;
}

/**
 * Credits and tokens per day. Tokens run hundreds of times higher than credits, so each
 * has its own axis (credits left, tokens right) and neither line is flattened.
 */
export function consumptionChartOption(
  days: readonly UsageDay[],
  labels: ConsumptionLabels,
  layout: ChartLayout = { narrow: false },
): ChartOption {
  return {
    aria: aria(labels.description),
    ...legendAndGrid(layout.narrow, [labels.credits, labels.tokens]),
    tooltip: { trigger: 'axis' },
    xAxis: { type: 'category', boundaryGap: false, data: days.map((d) => shortDay(d.date)) },
    yAxis: [
      { ...countAxis(labels.credits), axisLine: { show: true, lineStyle: { color: SERIES_COLORS.credits } } },
      {
        ...countAxis(labels.tokens),
        nameTextStyle: { align: 'right' },
        axisLine: { show: true, lineStyle: { color: SERIES_COLORS.tokens } },
        // One set of grid lines is enough; two that disagree only confuse.
        splitLine: { show: false },
      },
    ],
    series: [
      lineSeries(
        labels.credits,
        days.map((d) => d.credits),
        SERIES_COLORS.credits,
        0,
      ),
      lineSeries(
        labels.tokens,
        days.map((d) => d.tokens),
        SERIES_COLORS.tokens,
        1,
      ),
    ],
  };
}

/** One bar of a ranking. */
export interface Bar {
  name: string;
  value: number;
  color: string;
}

/** Horizontal bars, largest on top, so long names read in full on a phone. */
export function barChartOption(
  bars: readonly Bar[],
  seriesName: string,
  description: string,
  layout: ChartLayout = { narrow: false },
): ChartOption {
  // echarts draws the first category at the bottom of a vertical category axis.
  const ordered = [...bars].sort((a, b) => a.value - b.value);
  return {
    aria: aria(description),
    grid: { ...GRID, top: 8 },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    // Fewer ticks on a phone, where six four-digit numbers would run into each other.
    xAxis: { type: 'value', minInterval: 1, splitNumber: layout.narrow ? 3 : 5, axisLabel: { hideOverlap: true } },
    yAxis: {
      type: 'category',
      data: ordered.map((bar) => bar.name),
      axisLabel: { width: 120, overflow: 'truncate' },
    },
    series: [
      {
        type: 'bar',
        name: seriesName,
        barMaxWidth: 28,
        data: ordered.map((bar) => ({ value: bar.value, itemStyle: { color: bar.color } })),
      },
    ],
  };
}

/** Models ranked by a measure, all in that measure's colour. */
export function modelBars(models: readonly UsageByModel[], metric: BreakdownMetric): Bar[] {
  return models.map((m) => ({ name: m.display_name || m.model_name, value: m[metric], color: SERIES_COLORS[metric] }));
}

/** Each group in its own colour, as it appears on tags elsewhere; `noGroup` names users outside any group. */
export function groupBars(groups: readonly UsageByGroup[], metric: BreakdownMetric, noGroup: string): Bar[] {
  return groups.map((g) => ({
    name: g.group_name ?? noGroup,
    value: g[metric],
    color: g.group_color || FALLBACK_GROUP_COLOR,
  }));
}

/** "A 12, B 3", largest first: a ranking as one sentence for screen readers. */
export function barSummary(bars: readonly Bar[], format: (value: number) => string): string {
  return [...bars]
    .sort((a, b) => b.value - a.value)
    .map((bar) => `${bar.name} ${format(bar.value)}`)
    .join(', ');
}

/** Pixel height of a bar chart that gives every bar room, within sensible bounds. */
export function barChartHeight(count: number): number {
  return Math.min(520, Math.max(160, 40 + count * 36));
}

/** True when the range holds no usage at all: the page then shows an empty state instead of flat charts. */
export function isEmptyOverview(overview: UsageOverview): boolean {
  const { messages, tokens, credits, conversations, active_users } = overview.totals;
  return messages + tokens + credits + conversations + active_users === 0;
}

import type { UsageOverview } from '@aiplatform/contracts';
// Type only: erased from the bundle, so echarts itself still loads with the chart alone.
import type { ChartOption } from '../../components/charts/echarts-setup';

/** Bars for messages, a line for credits: the darker antd blue and orange, legible on white. */
export const MESSAGES_COLOR = '#0958d9';
export const CREDITS_COLOR = '#d46b08';

export interface DailyUsageLabels {
  messages: string;
  credits: string;
}

const dayFormatters = new Map<string, Intl.DateTimeFormat>();

/**
 * A `YYYY-MM-DD` day as month and day in the reader's language. The day is already in
 * the statistics time zone, so it is read and written in UTC, never shifted by the
 * browser's own zone.
 */
export function formatDay(day: string, language: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return day;
  let formatter = dayFormatters.get(language);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(language, { month: 'numeric', day: 'numeric', timeZone: 'UTC' });
    dayFormatters.set(language, formatter);
  }
  return formatter.format(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))));
}

/** Messages (bars, left axis) and credits (line, right axis) per day, oldest first. */
export function dailyUsageOption(days: UsageOverview['days'], labels: DailyUsageLabels, language: string): ChartOption {
  return {
    color: [MESSAGES_COLOR, CREDITS_COLOR],
    tooltip: { trigger: 'axis' },
    legend: { top: 0, data: [labels.messages, labels.credits] },
    // The grid keeps its axis labels inside the drawing (echarts' default outer bounds).
    grid: { left: 8, right: 8, top: 40, bottom: 4 },
    xAxis: {
      type: 'category',
      data: days.map((day) => formatDay(day.date, language)),
      axisTick: { alignWithLabel: true },
    },
    yAxis: [
      // Counts are whole numbers: no 0.5 ticks on a quiet month.
      { type: 'value', minInterval: 1 },
      { type: 'value', minInterval: 1, splitLine: { show: false } },
    ],
    series: [
      { name: labels.messages, type: 'bar', data: days.map((day) => day.messages), barMaxWidth: 14 },
      {
        name: labels.credits,
        type: 'line',
        yAxisIndex: 1,
        data: days.map((day) => day.credits),
        // A dot on each of thirty days crowds the line; the tooltip marks the day pointed at.
        showSymbol: false,
      },
    ],
  };
}

export interface ModelShare {
  modelName: string;
  displayName: string;
  messages: number;
  credits: number;
  /** Share of the period's messages, 0..100, rounded. */
  percent: number;
}

/** The models used in the period, most messages first, with their share of all messages. */
export function modelShares(models: UsageOverview['models']): ModelShare[] {
  const total = models.reduce((sum, model) => sum + model.messages, 0);
  return models
    .filter((model) => model.messages > 0 || model.credits > 0)
    .map((model) => ({
      modelName: model.model_name,
      displayName: model.display_name || model.model_name,
      messages: model.messages,
      credits: model.credits,
      percent: total > 0 ? Math.round((model.messages / total) * 100) : 0,
    }))
    .sort((a, b) => b.messages - a.messages || b.credits - a.credits || a.displayName.localeCompare(b.displayName));
}

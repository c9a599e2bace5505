import { describe, expect, it } from 'vitest';
import { CREDITS_COLOR, MESSAGES_COLOR, dailyUsageOption, formatDay, modelShares } from './usage-chart';

const day = (date: string, messages: number, credits: number) => ({
  date,
  messages,
  credits,
  tokens: 0,
  active_users: 0,
  conversations: 0,
});

interface Series {
  name: string;
  type: string;
  yAxisIndex?: number;
  data: number[];
}

describe('formatDay', () => {
  it('writes month and day in the language, whatever the browser zone', () => {
    expect(formatDay('2025-03-01', 'en-US')).toBe('3/1');
    expect(formatDay('2025-12-31', 'zh-CN')).toBe('12/31');
  });

  it('leaves anything else as it is', () => {
    expect(formatDay('yesterday', 'en-US')).toBe('yesterday');
  });
});

describe('dailyUsageOption', () => {
  const labels = { messages: 'Messages', credits: 'Credits' };
  const option = dailyUsageOption(
    [day('2025-03-01', 2, 10), day('2025-03-02', 0, 0), day('2025-03-03', 6, 30)],
    labels,
    'en-US',
  );

  it('has one category per day, oldest first', () => {
    expect((option.xAxis as { data: string[] }).data).toEqual(['3/1', '3/2', '3/3']);
  });

  it('draws messages as bars on the left axis and credits as a line on the right', () => {
    const [messages, credits] = option.series as Series[];
    expect(messages).toMatchObject({ name: 'Messages', type: 'bar', data: [2, 0, 6] });
    expect(messages?.yAxisIndex).toBeUndefined();
    expect(credits).toMatchObject({ name: 'Credits', type: 'line', yAxisIndex: 1, data: [10, 0, 30] });
    expect(option.color).toEqual([MESSAGES_COLOR, CREDITS_COLOR]);
    expect((option.legend as { data: string[] }).data).toEqual(['Messages', 'Credits']);
  });

  it('keeps axis ticks on whole numbers', () => {
    expect((option.yAxis as { minInterval: number }[]).map((axis) => axis.minInterval)).toEqual([1, 1]);
  });
});

describe('modelShares', () => {
  const model = (name: string, messages: number, credits: number, display = name.toUpperCase()) => ({
    model_name: name,
    display_name: display,
    messages,
    tokens: 0,
    credits,
  });

  it('orders by messages and gives each its share of the messages', () => {
    const shares = modelShares([model('a', 2, 20), model('b', 6, 6), model('c', 0, 0)]);
    expect(shares.map((s) => [s.modelName, s.displayName, s.percent])).toEqual([
      ['b', 'B', 75],
      ['a', 'A', 25],
    ]);
  });

  it('falls back to the model name when it has no display name', () => {
    expect(modelShares([model('raw', 2, 1, '')])[0]?.displayName).toBe('raw');
  });

  it('is empty without use', () => {
    expect(modelShares([])).toEqual([]);
  });
});

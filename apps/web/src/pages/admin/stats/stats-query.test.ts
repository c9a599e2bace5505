import { describe, expect, it } from 'vitest';
import { parseStatsQuery, statsApiQuery, statsSearchParams } from './stats-query';

const parse = (search: string, mayPickGroup = true) => parseStatsQuery(new URLSearchParams(search), mayPickGroup);

describe('statistics view in the address', () => {
  it('reads the offered ranges and a group', () => {
    expect(parse('days=7&group=12')).toEqual({ days: 7, groupId: 12 });
    expect(parse('days=90')).toEqual({ days: 90 });
  });

  it('falls back to 30 days for anything but an offered range', () => {
    for (const days of ['', 'abc', '0', '31', '7.5', '-7', '366']) expect(parse(`days=${days}`).days).toBe(30);
    expect(parse('').days).toBe(30);
  });

  it('drops a group that is not a positive whole number', () => {
    for (const group of ['', '0', '-3', '1.5', 'x', '01', '99999999999']) {
      expect(parse(`group=${group}`)).toEqual({ days: 30 });
    }
  });

  it('ignores the group for someone who only sees their own', () => {
    expect(parse('days=7&group=12', false)).toEqual({ days: 7 });
  });

  it('writes a short address and the server query', () => {
    expect(statsSearchParams({ days: 30 })).toEqual({});
    expect(statsSearchParams({ days: 7, groupId: 4 })).toEqual({ days: '7', group: '4' });
    expect(statsApiQuery({ days: 90 })).toEqual({ days: 90 });
    expect(statsApiQuery({ days: 7, groupId: 4 })).toEqual({ days: 7, group_id: 4 });
  });

  it('reads back what it writes', () => {
    const query = { days: 90, groupId: 3 } as const;
    expect(parse(new URLSearchParams(statsSearchParams(query)).toString())).toEqual(query);
  });
});

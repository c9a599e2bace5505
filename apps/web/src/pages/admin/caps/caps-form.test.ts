import { describe, expect, it } from 'vitest';
import { bodyOf, formValuesOf, placeServerErrors } from './caps-form';

const translate = (key: string) => `T(${key})`;

describe('caps form', () => {
  it('round-trips the stored config and trims blanks to nulls', () => {
    const values = formValuesOf({
      caps: [{ period: 'day', credits: 200, model_name: null }],
      alerts: [{ percent: 80, channels: ['in_app'] }],
      webhook_url: null,
      webhook_secret: 'k',
    });
    expect(values.webhook_url).toBe('');
    values.caps.push({ period: 'week', credits: 900, model_name: '  gpt-x ' });
    expect(bodyOf(values)).toEqual({
      caps: [
        { period: 'day', credits: 200, model_name: null },
        { period: 'week', credits: 900, model_name: 'gpt-x' },
      ],
      alerts: [{ percent: 80, channels: ['in_app'] }],
      webhook_url: null,
    });
  });

  it('puts each server message on its field, a repeat on the list that repeats', () => {
    const body = {
      caps: [{ period: 'day' as const, credits: 1, model_name: null }],
      alerts: [
        { percent: 80, channels: [] },
        { percent: 80, channels: [] },
      ],
      webhook_url: null,
    };
    const placed = placeServerErrors(
      [
        'T(validation.caps.webhookMissing)',
        'T(validation.caps.duplicate)',
        'T(validation.caps.credits)',
        'something else',
      ],
      body,
      translate,
    );
    expect(placed).toEqual({
      caps: ['T(validation.caps.credits)', 'something else'],
      alerts: ['T(validation.caps.duplicate)'],
      webhook_url: ['T(validation.caps.webhookMissing)'],
    });
    const capsRepeat = { ...body, caps: [body.caps[0]!, body.caps[0]!], alerts: [] };
    expect(placeServerErrors(['T(validation.caps.duplicate)'], capsRepeat, translate).caps).toHaveLength(1);
  });
});

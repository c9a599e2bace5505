import type { CapAlertFacts } from './cap-alerts.js';

const PERIOD = {
  day: { zh: '每日', en: 'daily' },
  week: { zh: '每周', en: 'weekly' },
  month: { zh: '每月', en: 'monthly' },
} as const;

/**
 * A budget alert by mail. Accounts carry no language preference, so, like the low-pool
 * warning, the mail is written in both languages, Chinese first.
 */
export function renderCapAlertMail(f: CapAlertFacts): { subject: string; text: string } {
  const period = PERIOD[f.period];
  const model = f.model_name ? ` (${f.model_name})` : '';
  const whoZh = f.subject_type === 'group' ? `用户组「${f.subject_name}」` : `用户 ${f.subject_name} `;
  const whoEn = f.subject_type === 'group' ? `group "${f.subject_name}"` : `user ${f.subject_name}`;
  return {
    subject: `用量已达 ${f.percent}% / Usage at ${f.percent}%: ${f.subject_name}`,
    text: [
      `${whoZh}的${period.zh}用量上限${model}已使用 ${f.used} / ${f.limit} 积分（${f.percent}% 提醒）。`,
      `上限将于 ${f.resets_at} 重置。`,
      '',
      `The ${period.en} usage cap${model} of ${whoEn} is at ${f.used} of ${f.limit} credits (${f.percent}% alert).`,
      `It resets at ${f.resets_at}.`,
    ].join('\n'),
  };
}

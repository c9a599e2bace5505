/** What a pool threshold alert says, in the bell's `data`, the webhook's body and the mail. */
export interface PoolAlertFacts {
  group_id: number;
  group_name: string;
  percent: number;
  /** The pool's size, what has gone out of it to members, and what is left. */
  pool: number;
  used: number;
  remaining: number;
}

/**
 * A pool threshold alert by mail. Accounts carry no language preference, so, like the
 * cap alerts, the mail is written in both languages, Chinese first.
 */
export function renderPoolThresholdMail(f: PoolAlertFacts): { subject: string; text: string } {
  return {
    subject: `积分池已用 ${f.percent}% / Credit pool at ${f.percent}%: ${f.group_name}`,
    text: [
      `用户组「${f.group_name}」的积分池已分配 ${f.used} / ${f.pool} 积分，剩余 ${f.remaining}（${f.percent}% 提醒）。`,
      '',
      `The credit pool of group "${f.group_name}" has given out ${f.used} of ${f.pool} credits; ${f.remaining} are left (${f.percent}% alert).`,
    ].join('\n'),
  };
}

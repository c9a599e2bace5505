/**
 * The low-pool warning. Accounts carry no language preference, so the mail is written
 * in both languages, Chinese first.
 */
export function renderPoolAlertMail(p: { group: string; remaining: number; total: number; percent: number }): {
  subject: string;
  text: string;
} {
  return {
    subject: `积分池余额不足 / Credits pool running low: ${p.group}`,
    text: [
      `用户组「${p.group}」的积分池仅剩 ${p.remaining} / ${p.total}，已低于 ${p.percent}%。`,
      '如需继续向成员分配积分，请联系超级管理员增加积分池。',
      '',
      `The credits pool of group "${p.group}" is down to ${p.remaining} of ${p.total}, below ${p.percent}%.`,
      'To keep distributing credits to members, ask the super administrator to enlarge the pool.',
    ].join('\n'),
  };
}

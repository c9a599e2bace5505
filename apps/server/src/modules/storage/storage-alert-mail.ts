/** Bytes as the mail shows them: megabytes with one decimal. */
const mb = (bytes: number) => (bytes / (1024 * 1024)).toFixed(1);

/**
 * The storage warning. Accounts carry no language preference, so the mail is written in
 * both languages, Chinese first.
 */
export function renderStorageAlertMail(p: { usedBytes: number; budgetBytes: number; percent: number }): {
  subject: string;
  text: string;
} {
  const used = Math.floor((p.usedBytes * 100) / p.budgetBytes);
  return {
    subject: `上传存储即将用满 / Upload storage nearly full: ${used}%`,
    text: [
      `站点已保存的上传文件（聊天图片和头像）共 ${mb(p.usedBytes)} MB，已达存储上限 ${mb(p.budgetBytes)} MB 的 ${used}%（提醒阈值 ${p.percent}%）。`,
      '达到上限后将拒绝新的上传。可在“系统设置 → 存储”中提高上限，或清理不再需要的对话。',
      '',
      `Stored uploads (chat images and avatars) take ${mb(p.usedBytes)} MB, ${used}% of the ${mb(p.budgetBytes)} MB budget (alert at ${p.percent}%).`,
      'New uploads are refused once the budget is reached. Raise it under Settings → Storage, or remove conversations no longer needed.',
    ].join('\n'),
  };
}

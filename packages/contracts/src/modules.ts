import { z } from 'zod';

export const MODULE_OPEN_MODES = ['iframe', 'new_tab'] as const;

/** A module as every signed-in user's menu sees it. */
export const UserModuleSchema = z.object({
  id: z.number(),
  name: z.string(),
  display_name: z.string(),
  menu_icon: z.string(),
  open_mode: z.enum(MODULE_OPEN_MODES),
  module_url: z.string(),
  is_active: z.boolean(),
});
export type UserModule = z.infer<typeof UserModuleSchema>;

/** Whether a navigation leaves the settings page, rather than switching its tab (`?tab=`). */
export function leavesPage(current: { pathname: string }, next: { pathname: string }): boolean {
  return current.pathname.replace(/\/+$/, '') !== next.pathname.replace(/\/+$/, '');
}

import { useIsMobile } from '../../../components/layout/use-is-mobile';

/** Modals and drawers take the whole width on phones and a fixed width on larger screens. */
export function useOverlaySize(desktopModalWidth = 520, desktopDrawerWidth = 760) {
  const isMobile = useIsMobile();
  return {
    isMobile,
    modalWidth: isMobile ? '100%' : desktopModalWidth,
    drawerSize: isMobile ? '100%' : desktopDrawerWidth,
  } as const;
}

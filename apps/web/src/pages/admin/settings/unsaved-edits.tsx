import { Modal } from 'antd';
import { type ReactNode, createContext, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type BlockerFunction, useBlocker } from 'react-router';
import { leavesPage } from './leaves-page';

type Report = (id: string, dirty: boolean) => void;

const ReportContext = createContext<Report>(() => undefined);

/** A form inside the settings tells the page whether it holds edits not saved yet. */
export function useReportUnsaved(id: string, dirty: boolean): void {
  const report = useContext(ReportContext);
  useEffect(() => {
    report(id, dirty);
    return () => report(id, false);
  }, [report, id, dirty]);
}

/**
 * Around the settings tabs: while any form holds unsaved edits, leaving the page asks first,
 * whether through the app (menu, links, back) or by reloading or closing the browser tab.
 * Switching between the tabs is not leaving: every tab keeps its edits.
 */
export function UnsavedEditsGuard({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  // The hook form of the dialog, so it wears the app's theme and language.
  const [modal, modalHolder] = Modal.useModal();
  const [dirtyForms, setDirtyForms] = useState<ReadonlySet<string>>(new Set());
  const report = useCallback<Report>((id, dirty) => {
    setDirtyForms((current) => {
      if (current.has(id) === dirty) return current;
      const next = new Set(current);
      if (dirty) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);
  const unsaved = dirtyForms.size > 0;

  const blocker = useBlocker(
    useCallback<BlockerFunction>(
      ({ currentLocation, nextLocation }) => unsaved && leavesPage(currentLocation, nextLocation),
      [unsaved],
    ),
  );
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    const dialog = modal.confirm({
      title: t('settings:leave.title'),
      content: t('settings:leave.content'),
      okText: t('settings:leave.ok'),
      okButtonProps: { danger: true, ...{ 'data-testid': 'settings-leave-ok' } },
      cancelText: t('settings:leave.cancel'),
      cancelButtonProps: { ...{ 'data-testid': 'settings-leave-cancel' } },
      onOk: () => blocker.proceed(),
      onCancel: () => blocker.reset(),
    });
    return () => dialog.destroy();
  }, [blocker, modal, t]);

  useEffect(() => {
    if (!unsaved) return;
    // The browser asks with its own words; the text given here is ignored by browsers today.
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [unsaved]);

  return (
    <ReportContext.Provider value={useMemo(() => report, [report])}>
      {children}
      {modalHolder}
    </ReportContext.Provider>
  );
}

import { type ReactNode, createContext, useContext, useMemo, useState } from 'react';
import { FileTextDrawer, type TextTarget } from './FileTextDrawer';

type OpenText = (target: TextTarget) => void;

const OpenTextContext = createContext<OpenText>(() => undefined);

/** One text drawer for a screen: chips, attachments and citations open it through `useOpenText`. */
export function TextViewerProvider({ children }: { children: ReactNode }) {
  const [target, setTarget] = useState<TextTarget | null>(null);
  const open = useMemo<OpenText>(() => (next) => setTarget(next), []);
  return (
    <OpenTextContext.Provider value={open}>
      {children}
      <FileTextDrawer target={target} onClose={() => setTarget(null)} />
    </OpenTextContext.Provider>
  );
}

/** Opens a document's extracted text (at a cited page and passage, when given). */
export const useOpenText = (): OpenText => useContext(OpenTextContext);

import { type KeyboardEvent, useRef } from 'react';
import { useTranslation } from 'react-i18next';

export type LoginMethod = 'password' | 'code';

const METHODS: readonly { value: LoginMethod; labelKey: string }[] = [
  { value: 'password', labelKey: 'auth:login.tabPassword' },
  { value: 'code', labelKey: 'auth:login.tabCode' },
];

/**
 * The two standard-mode login tabs. A small ARIA tab list rather than antd Tabs, which
 * brings menu and dropdown code into the login bundle for its overflow handling.
 */
export function MethodTabs({ value, onChange }: { value: LoginMethod; onChange: (method: LoginMethod) => void }) {
  const { t } = useTranslation();
  const refs = useRef<(HTMLButtonElement | null)[]>([]);

  const onKeyDown = (event: KeyboardEvent, index: number) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    const next = (index + (event.key === 'ArrowRight' ? 1 : METHODS.length - 1)) % METHODS.length;
    const method = METHODS[next];
    if (!method) return;
    onChange(method.value);
    refs.current[next]?.focus();
  };

  return (
    <div className="login-tabs" role="tablist">
      {METHODS.map((method, index) => (
        <button
          key={method.value}
          ref={(el) => {
            refs.current[index] = el;
          }}
          type="button"
          role="tab"
          aria-selected={value === method.value}
          aria-controls={`login-panel-${method.value}`}
          tabIndex={value === method.value ? 0 : -1}
          className="login-tab"
          onClick={() => onChange(method.value)}
          onKeyDown={(event) => onKeyDown(event, index)}
          data-testid={`login-tab-${method.value}`}
        >
          {t(method.labelKey)}
        </button>
      ))}
    </div>
  );
}

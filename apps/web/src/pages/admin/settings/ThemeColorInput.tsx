import { Button, ColorPicker } from 'antd';
import { useTranslation } from 'react-i18next';

interface ThemeColorInputProps {
  /** From Form.Item: '#rrggbb', or '' for "not set". */
  value?: string;
  onChange?: (value: string) => void;
  id?: string;
  disabled?: boolean;
  testId: string;
}

/**
 * One named theme colour; clearing it leaves the built-in colour in place. The trigger
 * is a real button (antd's own is a plain div), so it takes focus and the field's label.
 */
export function ThemeColorInput({ value, onChange, id, disabled, testId }: ThemeColorInputProps) {
  const { t } = useTranslation();
  return (
    <ColorPicker
      value={value || null}
      allowClear
      disabledAlpha
      onChange={(color) => onChange?.(color.cleared ? '' : color.toHexString())}
      onClear={() => onChange?.('')}
      disabled={disabled}
    >
      <Button id={id} disabled={disabled} className="theme-color-button" data-testid={testId}>
        <span
          className={value ? 'theme-color-swatch' : 'theme-color-swatch theme-color-swatch-empty'}
          style={value ? { background: value } : undefined}
          aria-hidden
        />
        <span>{value || t('settings:basic.colorDefault')}</span>
      </Button>
    </ColorPicker>
  );
}

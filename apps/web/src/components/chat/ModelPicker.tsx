import type { ChatModel } from '@aiplatform/contracts';
import { CheckOutlined, DownOutlined, PictureOutlined, RobotOutlined } from '@ant-design/icons';
import { Button, Dropdown, type MenuProps, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useMenuButton } from '../common/use-menu-button';
import { creditsPerChat } from './credit-check';
import './model-picker.css';

interface ModelPickerProps {
  models: ChatModel[];
  current: string | undefined;
  currentLabel: string;
  disabled: boolean;
  onChange: (modelName: string) => void;
}

const NO_MODELS = '__none__';

/**
 * A button opening a menu of the available models with their price per chat and image
 * support. The menu is a set of radio items: arrow keys move, Enter or a click chooses,
 * Escape closes; the focus then returns to the button.
 */
export function ModelPicker({ models, current, currentLabel, disabled, onChange }: ModelPickerProps) {
  const { t } = useTranslation();
  const { open, trigger, onOpenChange, close } = useMenuButton();

  const items: MenuProps['items'] =
    models.length === 0
      ? [{ key: NO_MODELS, label: t('chat:form.noModels'), disabled: true }]
      : models.map((model) => {
          const selected = model.name === current;
          return {
            key: model.name,
            role: 'menuitemradio',
            'aria-checked': selected,
            'data-testid': `model-option-${model.name}`,
            label: (
              <span className="chat-model-item">
                <span className="chat-model-check" aria-hidden="true">
                  {selected && <CheckOutlined />}
                </span>
                <span className="chat-model-name">{model.display_name}</span>
                {model.image_upload_enabled && (
                  <PictureOutlined
                    className="chat-model-image"
                    aria-label={t('chat:model.supportsImage')}
                    title={t('chat:model.supportsImage')}
                  />
                )}
                <Tag className="chat-model-credits">{t('chat:model.creditsPerChat', { n: creditsPerChat(model) })}</Tag>
              </span>
            ),
          };
        });

  const onClick: MenuProps['onClick'] = ({ key }) => {
    close();
    if (key !== NO_MODELS && key !== current) onChange(key);
  };

  return (
    <Dropdown
      menu={{
        items,
        onClick,
        selectable: true,
        selectedKeys: current ? [current] : [],
        'aria-label': t('chat:model.title'),
        className: 'chat-model-menu',
      }}
      trigger={['click']}
      placement="topLeft"
      open={open && !disabled}
      onOpenChange={onOpenChange}
      disabled={disabled}
      autoFocus
    >
      <Button
        ref={trigger}
        icon={<RobotOutlined />}
        disabled={disabled}
        className="chat-model-picker"
        aria-label={t('chat:model.pickerCurrent', { name: currentLabel })}
        aria-haspopup="menu"
        aria-expanded={open && !disabled}
        data-testid="model-picker"
      >
        <span className="chat-model-picker-label">{currentLabel}</span>
        <DownOutlined aria-hidden="true" />
      </Button>
    </Dropdown>
  );
}

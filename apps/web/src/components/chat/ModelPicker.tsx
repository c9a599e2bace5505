import type { ChatModel } from '@aiplatform/contracts';
import { CheckOutlined, DownOutlined, PictureOutlined, RobotOutlined } from '@ant-design/icons';
import { Button, Empty, Popover, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { creditsPerChat } from './credit-check';

interface ModelPickerProps {
  models: ChatModel[];
  current: string | undefined;
  currentLabel: string;
  disabled: boolean;
  onChange: (modelName: string) => void;
}

/** A popover of the available models with their price per chat and image support. */
export function ModelPicker({ models, current, currentLabel, disabled, onChange }: ModelPickerProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);

  const list =
    models.length === 0 ? (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('chat:form.noModels')} />
    ) : (
      <div className="chat-model-list" role="listbox" aria-label={t('chat:model.title')}>
        {models.map((model) => (
          <button
            key={model.name}
            type="button"
            role="option"
            aria-selected={model.name === current}
            className={`chat-model-option${model.name === current ? ' is-current' : ''}`}
            onClick={() => {
              setOpen(false);
              if (model.name !== current) onChange(model.name);
            }}
            data-testid={`model-option-${model.name}`}
          >
            <span className="chat-model-check">{model.name === current && <CheckOutlined />}</span>
            <span className="chat-model-name">{model.display_name}</span>
            {model.image_upload_enabled && (
              <Tooltip title={t('chat:model.supportsImage')}>
                <PictureOutlined className="chat-model-image" aria-label={t('chat:model.supportsImage')} />
              </Tooltip>
            )}
            <Tag className="chat-model-credits">{t('chat:model.creditsPerChat', { n: creditsPerChat(model) })}</Tag>
          </button>
        ))}
      </div>
    );

  return (
    <Popover
      trigger="click"
      placement="topLeft"
      title={t('chat:model.title')}
      content={list}
      open={open && !disabled}
      onOpenChange={setOpen}
    >
      <Button
        icon={<RobotOutlined />}
        disabled={disabled}
        className="chat-model-picker"
        aria-label={t('chat:model.picker')}
        data-testid="model-picker"
      >
        <span className="chat-model-picker-label">{currentLabel}</span>
        <DownOutlined />
      </Button>
    </Popover>
  );
}

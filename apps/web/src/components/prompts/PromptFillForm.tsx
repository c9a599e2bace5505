import type { PromptTemplate } from '@aiplatform/contracts';
import { Button, Flex, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { emptyValues, filledText } from './prompt-fill';

interface PromptFillFormProps {
  prompt: PromptTemplate;
  onBack: () => void;
  onDone: (text: string) => void;
}

/** One field per variable of the template; the filled text goes to the composer. */
export function PromptFillForm({ prompt, onBack, onDone }: PromptFillFormProps) {
  const { t } = useTranslation();
  return (
    <Form<Record<string, string>>
      layout="vertical"
      name="prompt-fill"
      initialValues={emptyValues(prompt.variables)}
      onFinish={(values) => onDone(filledText(prompt.content, prompt.variables, values))}
      data-testid="prompt-fill-form"
    >
      {prompt.variables.map((name, i) => (
        <Form.Item key={name} name={name} label={name} htmlFor={`prompt-var-${i}`}>
          <Input.TextArea
            id={`prompt-var-${i}`}
            autoFocus={i === 0}
            autoSize={{ minRows: 1, maxRows: 4 }}
            data-testid={`prompt-var-${i}`}
          />
        </Form.Item>
      ))}
      <Flex justify="end" gap={8}>
        <Button onClick={onBack}>{t('chat:prompts.back')}</Button>
        <Button type="primary" htmlType="submit" data-testid="prompt-fill-submit">
          {t('chat:prompts.insert')}
        </Button>
      </Flex>
    </Form>
  );
}

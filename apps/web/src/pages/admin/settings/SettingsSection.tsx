import { Col, Row, Typography } from 'antd';
import { Children, type ReactNode } from 'react';

/** A titled group of fields, two per row on wide screens and one per row on phones. */
export function SettingsSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="settings-section">
      <Typography.Title level={5} className="settings-section-title">
        {title}
      </Typography.Title>
      <Row gutter={24}>
        {Children.toArray(children).map((child, index) => (
          <Col key={index} xs={24} md={12}>
            {child}
          </Col>
        ))}
      </Row>
    </section>
  );
}

import { Card, Col, Flex, Row, Skeleton } from 'antd';

/** The page's shape while its first numbers load: five totals and two charts. */
export function StatsSkeleton() {
  return (
    <Flex vertical gap={12} data-testid="stats-loading">
      <Row gutter={[12, 12]}>
        {[0, 1, 2, 3, 4].map((index) => (
          <Col key={index} xs={12} md={8} xl={{ flex: '20%' }}>
            <Card size="small">
              <Skeleton active title={false} paragraph={{ rows: 2 }} />
            </Card>
          </Col>
        ))}
      </Row>
      <Row gutter={[12, 12]}>
        {[0, 1].map((index) => (
          <Col key={index} xs={24} xl={12}>
            <Card size="small">
              <Skeleton.Node active style={{ width: '100%', height: 280 }} />
            </Card>
          </Col>
        ))}
      </Row>
    </Flex>
  );
}

import { Paper, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** One part of a person's page: a titled card. */
export function PersonSection({
  title,
  count,
  children,
  id,
}: {
  title: string;
  count?: number;
  children: ReactNode;
  id: string;
}) {
  return (
    <Paper p={{ base: 'md', sm: 'lg' }} radius="md" shadow="xs" component="section" aria-labelledby={id}>
      <Title order={2} fz="lg" mb="sm" id={id}>
        {title}
        {count !== undefined && (
          <Text span c="dimmed" fz="md" fw={400}>
            {' '}
            ({count})
          </Text>
        )}
      </Title>
      {children}
    </Paper>
  );
}

import { ThemeIcon } from '@mantine/core';
import { IconDeviceMobile } from '@tabler/icons-react';
import text from '../../ui/text/row-text.module.css';
import { UserText } from '../../ui/text/user-text.tsx';
import classes from './device-summary.module.css';

export interface DeviceSummaryProps {
  deviceType: string;
  manufacturer: string;
  model: string;
  osVersion: string;
}

/** The device of a request: plain elements, as every row and card of the queue shows one (see ListRow). */
export function DeviceSummary({ deviceType, manufacturer, model, osVersion }: DeviceSummaryProps) {
  return (
    <div className={classes.summary}>
      <div className={`${ThemeIcon.classes.root} ${classes.icon}`} aria-hidden="true">
        <IconDeviceMobile size={16} />
      </div>
      <div className={classes.lines}>
        <p className={`${text.sm} ${text.medium}`}>
          <UserText>{manufacturer}</UserText> <UserText>{model}</UserText>
        </p>
        <p className={`${text.xs} ${text.dimmed}`}>
          <UserText>{deviceType}</UserText> · <UserText>{osVersion}</UserText>
        </p>
      </div>
    </div>
  );
}

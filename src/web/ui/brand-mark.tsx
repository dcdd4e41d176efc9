import { ThemeIcon } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import classes from './brand-mark.module.css';

/** The product's name and mark. Plain elements: the header of every signed-in page renders it first. */
export function BrandMark({ size = 'md', compact = false }: { size?: 'md' | 'lg'; compact?: boolean }) {
  const large = size === 'lg';
  return (
    <div className={classes.brand} data-size={size}>
      <div className={`${ThemeIcon.classes.root} ${classes.icon}`} aria-hidden="true">
        <IconShieldCheck size={large ? 26 : 20} />
      </div>
      <div className={compact ? 'mantine-visible-from-sm' : undefined}>
        <p className={classes.name}>Tachyon Consumer</p>
        <p className={classes.tagline}>Device trust &amp; push users</p>
      </div>
    </div>
  );
}

import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';
import { LazyTooltip } from '../../ui/overlays/lazy-tooltip.tsx';
import classes from './color-scheme-toggle.module.css';

/** The header's theme switch: a plain button with Mantine's ActionIcon classes, as every signed-in page renders it. */
export function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light', { getInitialValueInEffect: true });
  const next = computed === 'dark' ? 'light' : 'dark';
  const label = `Switch to ${next} theme`;
  return (
    <LazyTooltip label={label}>
      <button
        type="button"
        className={`mantine-focus-auto mantine-active ${ActionIcon.classes.root} ${classes.toggle}`}
        data-variant="default"
        aria-label={label}
        onClick={() => setColorScheme(next)}
      >
        <span className={ActionIcon.classes.icon}>
          {computed === 'dark' ? <IconSun size={18} /> : <IconMoon size={18} />}
        </span>
      </button>
    </LazyTooltip>
  );
}

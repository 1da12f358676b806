"use client";
// A square icon button: `label` is its accessible name and its tooltip (with the shortcut, when it
// has one), so an icon never stands alone.
import type { ButtonHTMLAttributes, ReactNode } from "react";
import type { TriggerProps } from "./Popover";
import { Tooltip } from "./Tooltip";

export function IconButton({
  icon,
  label,
  shortcut,
  className = "",
  ref,
  ...props
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, "children"> & {
  icon: ReactNode;
  label: string;
  shortcut?: string;
  ref?: TriggerProps["ref"];
}) {
  // Everything but the look goes through the tooltip, so a menu's trigger props (its ref, its
  // click handler) and the tooltip's hover and focus handlers all reach the button.
  const merged = { ...props, ref } as Partial<TriggerProps>;
  return (
    <Tooltip content={shortcut ? `${label} (${shortcut})` : label} triggerProps={merged}>
      {(triggerProps) => (
        <button
          type="button"
          aria-label={label}
          className={`inline-flex h-7 w-7 shrink-0 items-center justify-center rounded-md text-text hover:bg-surface-muted disabled:cursor-not-allowed disabled:opacity-40 ${className}`}
          {...triggerProps}
        >
          {icon}
        </button>
      )}
    </Tooltip>
  );
}

"use client";

import { useEffect, useId, useRef, useState } from "react";

/**
 * A button that shows and hides a panel (the WAI-ARIA disclosure pattern), as the header's phone menu, language
 * menu and account menu use it: the button says whether the panel is open (aria-expanded) and which one it
 * controls; Escape closes it and puts the focus back on the button; a click elsewhere, or the focus moving
 * somewhere outside (Tab past the last link), closes it too. So does showing another `page` (its path): a link
 * followed from the panel does not leave it open over the next page.
 */
export function useDisclosure(page: string) {
  // The page the panel was opened on, or null: it is open only while that page is shown.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === page;
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== "Escape") return;
      setOpenOn(null);
      buttonRef.current?.focus();
    }
    function onPointerDown(event: PointerEvent) {
      if (!rootRef.current?.contains(event.target as Node)) setOpenOn(null);
    }
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onPointerDown);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onPointerDown);
    };
  }, [open]);

  return {
    open,
    rootProps: {
      ref: rootRef,
      // Focus moving elsewhere closes the panel; focus lost to nothing (a click on plain text inside) does not.
      onBlur: (event: React.FocusEvent) => {
        const next = event.relatedTarget;
        if (next && !rootRef.current?.contains(next)) setOpenOn(null);
      },
    },
    buttonProps: {
      ref: buttonRef,
      type: "button" as const,
      "aria-expanded": open,
      "aria-controls": panelId,
      onClick: () => setOpenOn(open ? null : page),
    },
    panelProps: { id: panelId },
  };
}

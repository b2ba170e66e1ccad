'use client';

import { usePathname } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import './ui.css';

/**
 * On a phone the header is one line (brand, status dots, Menu); the navigation and sign-in open under
 * it with this button, and close again on the next page. Wider screens never show the button.
 */
export function MenuToggle() {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const pathname = usePathname();

  useEffect(() => {
    setOpen(false);
  }, [pathname]);

  useEffect(() => {
    const header = button.current?.closest('.app-header');
    if (open) header?.setAttribute('data-menu-open', 'true');
    else header?.removeAttribute('data-menu-open');
  }, [open]);

  return (
    <button
      ref={button}
      type="button"
      className="button button-ghost button-small menu-toggle"
      aria-expanded={open}
      aria-controls="main-navigation"
      onClick={() => setOpen((value) => !value)}
    >
      {open ? 'Close menu' : 'Menu'}
    </button>
  );
}

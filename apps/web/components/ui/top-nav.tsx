'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useApiClient } from '../../hooks/use-api-client';
import { useIdentity } from '../../hooks/use-identity';
import './ui.css';

const LINKS = [
  { href: '/', label: 'Chat' },
  { href: '/documents', label: 'Documents' },
  { href: '/collections', label: 'Collections' },
  { href: '/question-banks', label: 'Question banks' },
  { href: '/evals', label: 'Evaluations' },
] as const;

/** For reviewers: admins and keys that may write to a collection. */
const REVIEW_LINKS = [{ href: '/feedback', label: 'Feedback' }] as const;

/** Pages for admin keys only (the server refuses their requests to any other key). */
const ADMIN_LINKS = [
  { href: '/sources', label: 'Sources' },
  { href: '/keys', label: 'Keys' },
] as const;

function isActive(pathname: string, href: string): boolean {
  return href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`);
}

export function TopNav() {
  const pathname = usePathname() ?? '/';
  const api = useApiClient();
  const { identity, isAdmin } = useIdentity();
  const reviewer = isAdmin || (identity?.grants ?? []).some((grant) => grant.access === 'write');
  const links = [...LINKS, ...(reviewer ? REVIEW_LINKS : []), ...(isAdmin ? ADMIN_LINKS : [])];
  return (
    <nav className="top-nav" id="main-navigation" aria-label="Main">
      <ul>
        {links.map(({ href, label }) => (
          <li key={href}>
            <Link href={href} aria-current={isActive(pathname, href) ? 'page' : undefined}>
              {label}
            </Link>
          </li>
        ))}
        <li>
          <a href={`${api.baseUrl}/admin/queues`} target="_blank" rel="noreferrer" className="external-link">
            Queues<span className="visually-hidden"> (the job queue dashboard, opens in a new tab)</span>
            <span aria-hidden="true"> ↗</span>
          </a>
        </li>
      </ul>
    </nav>
  );
}

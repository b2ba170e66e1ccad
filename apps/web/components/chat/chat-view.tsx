'use client';

import { useState } from 'react';
import { isApiError } from '../../lib/api-errors';
import { useApiClient } from '../../lib/api-provider';
import { chatStore, selectIsBusy, useChatStore } from '../../store/chat.store';
import { getEffectiveSettings, useSettingsStore } from '../../store/settings.store';
import { SettingsDrawer } from '../settings/settings-drawer';
import { Composer } from './composer';
import { MessageList } from './message-list';

const DRAWER_ID = 'retrieval-settings';

export function ChatView() {
  const api = useApiClient();
  const busy = useChatStore(selectIsBusy);
  const changed = useSettingsStore((state) => Object.keys(state.overrides).length);
  const [settingsOpen, setSettingsOpen] = useState(false);

  const send = async (question: string) => {
    const { ask, resolve, fail } = chatStore.getState();
    const id = ask(question);
    try {
      resolve(id, await api.search(question, getEffectiveSettings()));
    } catch (error) {
      if (isApiError(error)) {
        console.warn(`Search failed (${error.code}): ${error.detail}`);
        fail(id, error.message);
      } else {
        console.error('Search failed', error);
        fail(id, 'Something went wrong in the web app while searching. Reload the page and try again.');
      }
    }
  };

  return (
    <section className="page chat-page" aria-labelledby="chat-title">
      <div className="chat-header">
        <h1 id="chat-title">Lumina</h1>
        <button
          type="button"
          className="button button-secondary"
          aria-haspopup="dialog"
          aria-expanded={settingsOpen}
          aria-controls={DRAWER_ID}
          onClick={() => setSettingsOpen(true)}
        >
          Retrieval settings
          {changed > 0 ? (
            <>
              <span className="badge-count" aria-hidden="true">
                {changed}
              </span>
              <span className="visually-hidden"> ({changed} changed)</span>
            </>
          ) : null}
        </button>
      </div>
      <MessageList />
      <Composer busy={busy} onSend={(question) => void send(question)} />
      <SettingsDrawer id={DRAWER_ID} open={settingsOpen} onClose={() => setSettingsOpen(false)} />
    </section>
  );
}

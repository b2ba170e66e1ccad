'use client';

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useCapabilities } from '../../hooks/use-capabilities';
import { isApiError } from '../../lib/api-errors';
import { useApiClient } from '../../hooks/use-api-client';
import type { Conversation } from '@lumina/shared';
import { createChatSession } from '../../store/chat-session';
import { quoteBefore, resolveMarker, sentenceAround } from '../../lib/citations';
import {
  chatStore,
  findAssistant,
  selectIsBusy,
  useChatStore,
  type AssistantTurn,
} from '../../store/chat.store';
import {
  collectionsStore,
  getEveryCollectionId,
  getRequestedCollectionIds,
} from '../../store/collections.store';
import { serverFactsStore } from '../../store/server-facts.store';
import { getEffectiveSettings, useSettingsStore } from '../../store/settings.store';
import { SettingsDrawer } from '../settings/settings-drawer';
import { CitationDialog, type OpenCitation } from './citation-dialog';
import { CollectionSwitcher } from './collection-switcher';
import { Composer } from './composer';
import { ConversationList } from './conversation-list';
import { MessageList } from './message-list';
import './chat.css';

const DRAWER_ID = 'retrieval-settings';

/** Saves text as a file through a temporary link. */
function downloadText(text: string, fileName: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

function fileSlug(title: string): string {
  return (
    title
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'conversation'
  );
}

function messageOf(error: unknown, fallback: string): string {
  return isApiError(error) ? error.message : fallback;
}

export function ChatView() {
  const api = useApiClient();
  const capabilities = useCapabilities();
  const busy = useChatStore(selectIsBusy);
  const changed = useSettingsStore((state) => Object.keys(state.overrides).length);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [conversationsOpen, setConversationsOpen] = useState(false);
  const [citation, setCitation] = useState<OpenCitation | null>(null);
  const [conversationQuery, setConversationQuery] = useState('');
  const [exportError, setExportError] = useState<string | null>(null);
  const conversationsAvailable = capabilities.has('listConversations');
  const conversationId = useChatStore((state) => state.conversationId);

  const refreshConversations = useCallback(async () => {
    const { setConversations } = chatStore.getState();
    setConversations('loading');
    try {
      const q = conversationQuery || undefined;
      const page = await api.listConversations({ page: 1, limit: 50, ...(q ? { q } : {}) });
      setConversations('ready', page.items);
    } catch (error) {
      setConversations('error', undefined, messageOf(error, 'The conversations could not be loaded.'));
    }
  }, [api, conversationQuery]);

  // The session lives as long as the API client: a stream must not be cut by unrelated re-renders.
  const afterAnswer = useRef<() => void>(() => undefined);
  useEffect(() => {
    afterAnswer.current = () => {
      if (conversationsAvailable) void refreshConversations();
    };
  }, [conversationsAvailable, refreshConversations]);
  const session = useMemo(
    () =>
      createChatSession({
        api,
        store: chatStore,
        settings: getEffectiveSettings,
        collectionIds: () => getRequestedCollectionIds(),
        everyCollectionId: () => getEveryCollectionId(),
        onSettled: () => afterAnswer.current(),
        onEvent: (event) => serverFactsStore.getState().observe(event),
      }),
    [api],
  );

  useEffect(() => {
    if (conversationsAvailable) void refreshConversations();
  }, [conversationsAvailable, refreshConversations]);

  // Leaving the page stops a streaming answer (its fetch would otherwise run on unseen).
  useEffect(() => () => session.stop(), [session]);

  const openCitation = (turn: AssistantTurn, marker: number, markerIndex: number) => {
    const current = findAssistant(chatStore.getState(), turn.id) ?? turn;
    const resolved = resolveMarker(
      marker,
      current.citations,
      current.retrieval?.passages ?? [],
      current.droppedMarkers,
      current.phase === 'done' || current.citations.length > 0,
    );
    const index = markerIndex >= 0 ? markerIndex : current.text.indexOf(`[${marker}]`);
    const claim = index >= 0 ? sentenceAround(current.text, index) : current.text;
    const quote = index >= 0 ? quoteBefore(current.text, index) : '';
    setCitation({ marker, citation: resolved.citation, passage: resolved.passage, claim, quote });
  };

  const openConversation = async (conversation: Conversation) => {
    setConversationsOpen(false);
    const { setOpening, load } = chatStore.getState();
    setOpening('loading');
    try {
      const detail = await api.getConversation(conversation.id);
      load(detail);
      // The switcher shows the collections its questions search (a follow-up searches them too).
      collectionsStore.getState().showConversation(detail.collectionIds);
    } catch (error) {
      setOpening('error', messageOf(error, 'The conversation could not be opened.'));
    }
  };

  const renameConversation = async (conversation: Conversation, title: string) => {
    try {
      const renamed = await api.renameConversation(conversation.id, title);
      chatStore.getState().upsertConversation({ ...conversation, ...renamed, title: renamed.title || title });
      return null;
    } catch (error) {
      return messageOf(error, 'The conversation could not be renamed.');
    }
  };

  const deleteConversation = async (conversation: Conversation) => {
    try {
      await api.deleteConversation(conversation.id);
      chatStore.getState().removeConversation(conversation.id);
      return null;
    } catch (error) {
      return messageOf(error, 'The conversation could not be deleted.');
    }
  };

  const exportConversation = async () => {
    if (!conversationId) return;
    setExportError(null);
    try {
      const markdown = await api.exportConversation(conversationId);
      const title = chatStore.getState().conversations.find((c) => c.id === conversationId)?.title;
      downloadText(markdown, `${fileSlug(title ?? 'conversation')}.md`, 'text/markdown');
    } catch (error) {
      setExportError(messageOf(error, 'The conversation could not be exported.'));
    }
  };

  const openingState = useChatStore((state) => state.openingState);
  const openingError = useChatStore((state) => state.openingError);

  return (
    <div className="chat-layout" data-conversations-open={conversationsOpen ? 'true' : undefined}>
      <aside className="chat-sidebar" id="conversation-panel">
        <ConversationList
          available={conversationsAvailable}
          canRename={capabilities.has('renameConversation')}
          canDelete={capabilities.has('deleteConversation')}
          busy={busy}
          onNew={() => {
            setConversationsOpen(false);
            chatStore.getState().newConversation();
          }}
          onOpen={(conversation) => void openConversation(conversation)}
          onRename={renameConversation}
          onDelete={deleteConversation}
          onRetry={() => void refreshConversations()}
          query={conversationQuery}
          onSearch={setConversationQuery}
        />
      </aside>
      <section className="page chat-page" aria-labelledby="chat-title">
        <div className="chat-header">
          <h1 id="chat-title">Lumina</h1>
          <div className="chat-header-actions">
            <CollectionSwitcher disabled={busy} />
            {/* Always shown (disabled until there is a conversation), so the header never shifts. */}
            {capabilities.has('exportConversation') ? (
              <button
                type="button"
                className="button button-secondary"
                onClick={() => void exportConversation()}
                disabled={busy || !conversationId}
              >
                Export as Markdown
              </button>
            ) : null}
            <button
              type="button"
              className="button button-secondary conversations-toggle"
              aria-expanded={conversationsOpen}
              aria-controls="conversation-panel"
              onClick={() => setConversationsOpen((open) => !open)}
            >
              Conversations
            </button>
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
        </div>
        {exportError ? (
          <p className="notice notice-bad" role="alert">
            {exportError}
          </p>
        ) : null}
        {openingState === 'loading' ? <p className="field-hint">Opening the conversation…</p> : null}
        {openingState === 'error' ? (
          <p className="notice notice-bad" role="alert">
            {openingError}
          </p>
        ) : null}
        <MessageList
          busy={busy}
          onOpenCitation={openCitation}
          onRetry={(turn) => void session.retry(turn.id)?.done}
          onRegenerate={
            capabilities.has('chat') ? (turn) => void session.regenerate(turn.id)?.done : undefined
          }
          onEdit={(turnId, text) => void session.resend(turnId, text)?.done}
          onAnswerGenerally={(turn) => void session.answerFromGeneralKnowledge(turn.id)?.done}
        />
        <Composer
          busy={busy}
          onSend={(question) => void session.ask(question).done}
          onStop={() => session.stop()}
        />
        <SettingsDrawer id={DRAWER_ID} open={settingsOpen} onClose={() => setSettingsOpen(false)} />
        <CitationDialog open={citation} onClose={() => setCitation(null)} />
      </section>
    </div>
  );
}

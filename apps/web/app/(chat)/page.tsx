import { ChatView } from '../../components/chat/chat-view';

export default function ChatPage() {
  return <ChatView />;
}

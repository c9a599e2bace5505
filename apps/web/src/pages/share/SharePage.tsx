import type { SharedConversation } from '@aiplatform/contracts';
import { Alert, Button, Result } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { call } from '../../api/call';
import { toast } from '../../api/notify';
import { formatDateTime } from '../../components/common/format';
import { PageLoading } from '../../components/common/PageLoading';
import { loginPathFor } from '../../components/common/redirect-target';
import { useDocumentTitle } from '../../components/common/use-document-title';
import { i18n } from '../../i18n';
import { registerAppResources } from '../../i18n/app-resources';
import { useAuthStore } from '../../stores/auth-store';
import { SharedMessageItem } from './SharedMessageItem';
import '../chat/chat-messages.css';
import './share-page.css';

// Open to visitors too: the page brings the chat's and its own translations with it.
registerAppResources(i18n);

type Loaded =
  | { state: 'loading' }
  | { state: 'missing'; token: string }
  | { state: 'ready'; token: string; share: SharedConversation };

/**
 * `/share/:token`: a read-only copy of a shared conversation, rendered like the chat
 * (markdown, code, formulas). "Continue this chat" copies it into the reader's own
 * conversations; a visitor signs in first and comes back here.
 */
export default function SharePage() {
  const {
    t,
    i18n: { language },
  } = useTranslation();
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const signedIn = useAuthStore((s) => Boolean(s.user));
  const [result, setLoaded] = useState<Loaded>({ state: 'loading' });
  // Another link opened in place shows as loading until its own answer arrives.
  const loaded: Loaded = 'token' in result && result.token !== token ? { state: 'loading' } : result;
  const [copying, setCopying] = useState(false);
  useDocumentTitle(
    loaded.state === 'ready' ? loaded.share.title || t('chat:conversation.untitled') : t('share:action'),
  );

  useEffect(() => {
    let live = true;
    call('readShare', { params: { token }, silent: true }).then(
      (share) => live && setLoaded({ state: 'ready', token, share }),
      () => live && setLoaded({ state: 'missing', token }),
    );
    return () => {
      live = false;
    };
    // Read once per visit (each read counts one): signing in happens on another page.
  }, [token]);

  const continueChat = async () => {
    if (!signedIn) {
      void navigate(loginPathFor(`/share/${token}`));
      return;
    }
    setCopying(true);
    try {
      const conversation = await call('continueShare', { params: { token } });
      toast('success', t('share:page.continued'));
      void navigate(`/chat?c=${encodeURIComponent(conversation.id)}`);
    } catch {
      // The client has shown the reason.
    } finally {
      setCopying(false);
    }
  };

  if (loaded.state === 'loading') return <PageLoading />;
  if (loaded.state === 'missing') {
    return (
      <main className="share-page" data-testid="share-missing">
        <Result
          status="404"
          title={<h1 className="share-missing-title">{t('share:page.notFoundTitle')}</h1>}
          subTitle={t('share:page.notFound')}
          extra={
            !signedIn && (
              <Button type="primary" onClick={() => void navigate(loginPathFor(`/share/${token}`))}>
                {t('share:page.signIn')}
              </Button>
            )
          }
        />
      </main>
    );
  }

  const { share } = loaded;
  return (
    <main className="share-page" data-testid="share-page">
      <header className="share-header">
        <h1 className="share-title" data-testid="share-title">
          {share.title || t('chat:conversation.untitled')}
        </h1>
        <p className="share-meta">
          <span>{t('share:page.readOnly')}</span>
          <span>{t('share:page.sharedAt', { date: formatDateTime(share.shared_at, language) })}</span>
          <span>{t('share:page.model', { model: share.model_display_name })}</span>
        </p>
      </header>
      <section className="share-messages" aria-label={share.title || t('chat:conversation.untitled')}>
        {share.messages.length === 0 && <Alert type="info" showIcon title={t('share:page.empty')} />}
        {share.messages.map((message, index) => (
          <SharedMessageItem key={index} message={message} />
        ))}
      </section>
      <footer className="share-footer">
        <Button
          type="primary"
          size="large"
          loading={copying}
          onClick={() => void continueChat()}
          data-testid="share-continue"
        >
          {signedIn ? t('share:page.continue') : t('share:page.continueSignIn')}
        </Button>
      </footer>
    </main>
  );
}

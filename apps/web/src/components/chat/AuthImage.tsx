import { PictureOutlined } from '@ant-design/icons';
import { Image } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { chatApi } from '../../api/chat';

/*
 * Uploaded files are served only with the bearer token, which an <img> cannot send, so
 * each one is fetched once and shown from an object URL. The cache lives while the chat
 * page is open; the page releases it when it closes.
 */
const cache = new Map<string, Promise<string>>();

function objectUrlOf(url: string): Promise<string> {
  let pending = cache.get(url);
  if (!pending) {
    pending = chatApi.fileBlob(url).then((blob) => URL.createObjectURL(blob));
    pending.catch(() => cache.delete(url));
    cache.set(url, pending);
  }
  return pending;
}

/** Frees every object URL made for the chat page. */
export function releaseAuthImages(): void {
  for (const pending of cache.values())
    pending.then(
      (src) => URL.revokeObjectURL(src),
      () => undefined,
    );
  cache.clear();
}

interface AuthImageProps {
  /** A same-origin path such as `/api/chat/files/…`; anything else is not fetched. */
  url: string;
  name: string;
  size?: number;
  testId?: string;
}

/** An uploaded image with click-to-enlarge; its name stands in while loading or when unavailable. */
export function AuthImage({ url, name, size = 200, testId }: AuthImageProps) {
  const { t } = useTranslation();
  const [loaded, setLoaded] = useState<{ url: string; src: string | null } | null>(null);
  const sameOrigin = /^\/(?!\/)/.test(url);

  useEffect(() => {
    if (!sameOrigin) return;
    let live = true;
    objectUrlOf(url).then(
      (src) => live && setLoaded({ url, src }),
      (error: unknown) => {
        console.warn('Could not load an uploaded image', error);
        if (live) setLoaded({ url, src: null });
      },
    );
    return () => {
      live = false;
    };
  }, [url, sameOrigin]);

  const src = loaded?.url === url ? loaded.src : undefined;
  if (src) {
    return (
      <Image
        src={src}
        alt={name}
        style={{ maxWidth: size, maxHeight: size, objectFit: 'contain' }}
        className="chat-image"
        data-testid={testId}
      />
    );
  }
  return (
    <div className="chat-image-placeholder" style={{ width: size }} data-testid={testId} title={name}>
      <PictureOutlined />
      <span className="chat-image-name">
        {src === null || !sameOrigin ? `${name} · ${t('chat:message.imageUnavailable')}` : name}
      </span>
    </div>
  );
}

import { PictureOutlined } from '@ant-design/icons';
import { Image } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { chatApi } from '../../api/chat';
import { bareImageUrl, isSameOriginPath, isSignedImageUrl } from './image-source';

/*
 * Answers give each uploaded image a signed address that loads in a plain <img>. When it
 * cannot be used (expired while the page stayed open), the bare address is fetched once
 * with the bearer token and shown from an object URL. That cache lives while the chat page
 * is open; the page releases it when it closes.
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
  /** A same-origin path such as `/api/chat/images/…?exp=…&sig=…`; anything else is not fetched. */
  url: string;
  name: string;
  size?: number;
  testId?: string;
}

/** An uploaded image with click-to-enlarge; its name stands in while loading or when unavailable. */
export function AuthImage({ url, name, size = 200, testId }: AuthImageProps) {
  const { t } = useTranslation();
  const [loaded, setLoaded] = useState<{ url: string; src: string | null } | null>(null);
  // The signed address that failed to load, if any: then the bearer token is used instead.
  const [signedFailed, setSignedFailed] = useState<string | null>(null);
  const sameOrigin = isSameOriginPath(url);
  const direct = isSignedImageUrl(url) && signedFailed !== url;

  useEffect(() => {
    if (!sameOrigin || direct) return;
    let live = true;
    objectUrlOf(bareImageUrl(url)).then(
      (src) => live && setLoaded({ url, src }),
      (error: unknown) => {
        console.warn('Could not load an uploaded image', error);
        if (live) setLoaded({ url, src: null });
      },
    );
    return () => {
      live = false;
    };
  }, [url, sameOrigin, direct]);

  const src = direct ? url : loaded?.url === url ? loaded.src : undefined;
  if (src) {
    return (
      <Image
        src={src}
        alt={name}
        style={{ maxWidth: size, maxHeight: size, objectFit: 'contain' }}
        className="chat-image"
        data-testid={testId}
        onError={direct ? () => setSignedFailed(url) : undefined}
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

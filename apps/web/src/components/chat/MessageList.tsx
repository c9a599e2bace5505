import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import type { AnswerRework, ChatMessage, ScrollMemo } from './chat-message';
import { JumpToLatest } from './JumpToLatest';
import { MessageItem } from './MessageItem';
import './message-found.css';

/** Following pauses beyond 100 px from the bottom; streaming re-scrolls every 500 ms. */
export const SCROLL_THRESHOLD_PX = 100;
export const RESCROLL_INTERVAL_MS = 500;
/** A scroll this soon after a wheel, touch, key or pointer gesture counts as the user's. */
const GESTURE_WINDOW_MS = 1000;
/** How long a message opened from a search stays highlighted (the CSS fades it over this time). */
export const FOUND_HIGHLIGHT_MS = 2400;
/** Frames to wait for a scrolled-to row to be rendered before measuring it. */
const FIT_CHECK_FRAMES = 30;

interface MessageListProps {
  messages: ChatMessage[];
  /** An answer is being produced: follow its growth unless the user scrolled away. */
  streaming: boolean;
  /** Where this conversation's list was left; `undefined` opens at the bottom. */
  initialScroll: ScrollMemo | undefined;
  onScrollMemo: (memo: ScrollMemo) => void;
  modelNames: ReadonlyMap<string, string>;
  onDelete: (message: ChatMessage) => void;
  rework: AnswerRework;
  /** A message to bring into view (centred) and highlight briefly: a search hit being opened. */
  focusId?: string | null;
  /** The focus request was handled (or the message is not in this conversation). */
  onFocused?: () => void;
}

/**
 * The virtualised message list: only the rows in view exist in the page, so a
 * conversation of thousands of messages opens as fast as a short one.
 */
export function MessageList({
  messages,
  streaming,
  initialScroll,
  onScrollMemo,
  modelNames,
  onDelete,
  rework,
  focusId,
  onFocused,
}: MessageListProps) {
  const { t } = useTranslation();
  const virtuoso = useRef<VirtuosoHandle>(null);
  const [scroller, setScroller] = useState<HTMLElement | null>(null);
  const focusIndex = focusId ? messages.findIndex((m) => m.id === focusId) : -1;
  // Opened for a search hit: start at that message rather than at the bottom.
  const [openAt] = useState(focusIndex);
  const startsAtBottom = openAt < 0 && (initialScroll?.atBottom ?? true);
  const follow = useRef(startsAtBottom);
  // The ref is read inside scroll handlers; the state mirrors it for the jump button.
  const [following, setFollowing] = useState(startsAtBottom);
  const [atBottom, setAtBottom] = useState(startsAtBottom);
  const [foundId, setFoundId] = useState<string | null>(null);
  // A message opened from a search stays where it was put: the list does not slide to the
  // bottom as rows below it are measured, until the user scrolls or sends.
  const holdFound = useRef(openAt >= 0);
  const memo = useRef<ScrollMemo>(initialScroll ?? { atBottom: true, snapshot: null });
  const last = messages[messages.length - 1];

  const scrollToBottom = useCallback(() => virtuoso.current?.scrollToIndex({ index: 'LAST', align: 'end' }), []);
  // Stable: Virtuoso re-attaches its scroller (and reads its layout) whenever this changes.
  const scrollerRef = useCallback(
    (element: HTMLElement | Window | null) => setScroller(element instanceof HTMLElement ? element : null),
    [],
  );
  const setFollow = useCallback((value: boolean) => {
    follow.current = value;
    setFollowing(value);
  }, []);

  // Pauses following when the user scrolls up away from the bottom; resumes at the bottom.
  useEffect(() => {
    if (!scroller) return;
    let gestureAt = 0;
    let lastTop = scroller.scrollTop;
    const onGesture = () => {
      gestureAt = Date.now();
      holdFound.current = false;
    };
    const onScroll = () => {
      const top = scroller.scrollTop;
      const distance = scroller.scrollHeight - top - scroller.clientHeight;
      if (distance <= SCROLL_THRESHOLD_PX) {
        // Near the bottom but moving up (the first steps of a scroll away) does not re-engage.
        if (!holdFound.current && top >= lastTop) setFollow(true);
      } else if (top < lastTop && Date.now() - gestureAt < GESTURE_WINDOW_MS) setFollow(false);
      lastTop = top;
    };
    // A wheel turned upwards on a list that can scroll is the user leaving the bottom, even
    // before (or without) the scroll event it causes: on a busy page that event can come late,
    // and a row growing meanwhile (a late highlighter or formula) must not pull the list down.
    const onWheel = (event: WheelEvent) => {
      const scrollable = scroller.scrollHeight - scroller.clientHeight > SCROLL_THRESHOLD_PX;
      if (event.deltaY < 0 && scrollable && follow.current) setFollow(false);
    };
    const gestures = ['wheel', 'touchmove', 'pointerdown', 'keydown'] as const;
    gestures.forEach((name) => scroller.addEventListener(name, onGesture, { passive: true }));
    scroller.addEventListener('wheel', onWheel, { passive: true });
    scroller.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      gestures.forEach((name) => scroller.removeEventListener(name, onGesture));
      scroller.removeEventListener('wheel', onWheel);
      scroller.removeEventListener('scroll', onScroll);
    };
  }, [scroller, setFollow]);

  // A message just sent (still temporary) always brings the list down and resumes following.
  const lastId = last?.id;
  const lastIsTemp = Boolean(last?.temp);
  useEffect(() => {
    if (!lastIsTemp) return;
    // The state catches up from the scroll handler once the list has reached the bottom.
    holdFound.current = false;
    follow.current = true;
    scrollToBottom();
  }, [lastId, lastIsTemp, scrollToBottom]);

  // The growing answer is followed as its row grows (totalListHeightChanged below), and
  // re-scrolled on a timer for late layout changes. Not on every update as well: each
  // scroll makes the list read its layout and render again, within the same frame.
  useEffect(() => {
    if (!streaming) return;
    const timer = window.setInterval(() => {
      if (follow.current) scrollToBottom();
    }, RESCROLL_INTERVAL_MS);
    return () => {
      window.clearInterval(timer);
      // The finished answer gains its footer (tokens, stopped note): show it once laid out.
      requestAnimationFrame(() => {
        if (follow.current) scrollToBottom();
      });
    };
  }, [streaming, scrollToBottom]);

  useEffect(() => () => onScrollMemo(memo.current), [onScrollMemo]);

  // A search hit: centre it (or, taller than the view, show its start), stop following the
  // bottom, highlight it for a moment. On the next frame, so a list that has just mounted has
  // laid out its first rows; the height is checked once the row is rendered (a few frames).
  useEffect(() => {
    if (!focusId || !scroller) return;
    let frame = requestAnimationFrame(() => {
      if (focusIndex < 0) {
        onFocused?.();
        return;
      }
      holdFound.current = true;
      setFollow(false);
      virtuoso.current?.scrollToIndex({ index: focusIndex, align: 'center' });
      setFoundId(focusId);
      let framesLeft = FIT_CHECK_FRAMES;
      const fitCheck = () => {
        const row = scroller.querySelector<HTMLElement>(`[data-index="${focusIndex}"]`);
        if (!row && --framesLeft > 0) {
          frame = requestAnimationFrame(fitCheck);
          return;
        }
        if (row && row.offsetHeight > scroller.clientHeight)
          virtuoso.current?.scrollToIndex({ index: focusIndex, align: 'start' });
        onFocused?.();
      };
      frame = requestAnimationFrame(fitCheck);
    });
    return () => cancelAnimationFrame(frame);
  }, [focusId, focusIndex, onFocused, setFollow, scroller]);
  useEffect(() => {
    if (!foundId) return;
    const timer = window.setTimeout(() => setFoundId(null), FOUND_HIGHLIGHT_MS);
    return () => window.clearTimeout(timer);
  }, [foundId]);

  const jumpToLatest = () => {
    holdFound.current = false;
    setFollow(true);
    scrollToBottom();
    // The button goes away at the bottom: keyboard focus continues from the list, not the page top.
    scroller?.focus({ preventScroll: true });
  };
  // While the list follows the bottom it is only briefly short of it (an answer growing, a
  // late highlighter or image making a row taller) until the next re-scroll; the button would
  // only flicker then. It shows once the user has left the bottom.
  const showJump = !atBottom && !following;

  return (
    <>
      <Virtuoso
        ref={virtuoso}
        className="chat-message-list"
        // A named scroll region: reachable with Tab (the scroller is focusable) to read with the keys.
        role="region"
        aria-label={t('chat:message.list')}
        data-testid="message-list"
        data={messages}
        scrollerRef={scrollerRef}
        computeItemKey={(_, message) => message.id}
        {...(openAt >= 0
          ? { initialTopMostItemIndex: { index: openAt, align: 'center' } as const }
          : initialScroll && !initialScroll.atBottom && initialScroll.snapshot
            ? { restoreStateFrom: initialScroll.snapshot }
            : { initialTopMostItemIndex: { index: 'LAST', align: 'end' } as const })}
        atBottomThreshold={SCROLL_THRESHOLD_PX}
        // Rows grow after they are first drawn (highlighting and formulas load later, images
        // arrive): a list that follows the bottom stays there instead of ending up short of it.
        totalListHeightChanged={() => {
          if (follow.current && !holdFound.current) scrollToBottom();
        }}
        followOutput={() => (follow.current && !holdFound.current ? 'auto' : false)}
        increaseViewportBy={{ top: 400, bottom: 400 }}
        isScrolling={(scrolling) => {
          if (!scrolling)
            virtuoso.current?.getState((snapshot) => {
              memo.current = { ...memo.current, snapshot };
            });
        }}
        atBottomStateChange={(bottom) => {
          memo.current = { ...memo.current, atBottom: bottom };
          setAtBottom(bottom);
        }}
        itemContent={(index, message) => (
          <div className={message.id === foundId ? 'chat-row chat-row-found' : 'chat-row'}>
            <MessageItem
              message={message}
              modelLabel={(message.model_name && modelNames.get(message.model_name)) || message.model_name || ''}
              onDelete={onDelete}
              rework={rework}
              isLast={index === messages.length - 1}
              conversationBusy={streaming}
            />
          </div>
        )}
      />
      {showJump && <JumpToLatest onJump={jumpToLatest} />}
    </>
  );
}

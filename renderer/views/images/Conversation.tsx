import { useEffect, useRef } from 'react';
import { useApp, useT } from '../../store/StoreContext';
import type { VisionSession } from '../../store/visionSlice';
import { SessionImage, thumbClass } from './SessionImage';
import { Markdown } from './markdown';
import { replyWithoutSummary, splitTurnPrompt, stripLabel } from './turnText';
import { usageLine } from './usageText';

/**
 * The open session: its images (click one to zoom into a region) and every turn with the
 * images it added, the answer, and that turn's latency and token usage.
 */
export function Conversation({ onZoom }: { onZoom: (imageIndex: number) => void }) {
  const t = useT();
  const session = useApp((s) => s.visionSession);
  const lastTurn = useApp((s) => s.visionLastTurn);
  const end = useRef<HTMLDivElement>(null);
  const turnCount = session?.turns.length ?? 0;
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [turnCount]);
  if (!session) return null;

  return (
    <div className="vision-conversation" data-testid="vision-conversation">
      <div className="vision-session-info">
        <span>{t('vision.session.model', { provider: session.providerId, model: session.model })}</span>
        <span data-testid="vision-session-usage">
          {t('vision.session.usage', {
            calls: session.usage.calls,
            prompt: session.usage.promptTokens,
            completion: session.usage.completionTokens,
            ms: Math.round(session.usage.latencyMs),
          })}
        </span>
      </div>
      <p className="hint">{t('vision.session.images')}</p>
      <div className="vision-strip">
        {session.images.map((image) => (
          <button key={image.index} type="button" className="vision-strip-item" data-testid={`vision-zoom-open-${image.index}`} onClick={() => onZoom(image.index)}>
            <SessionImage sessionId={session.id} index={image.index} label={image.label} className={thumbClass(image.width, image.height)} />
            <span className="vision-strip-label" title={image.label}>
              #{image.index} {stripLabel(image.label)}
            </span>
          </button>
        ))}
      </div>
      <ol className="vision-turns">
        {session.turns.map((turn) => (
          <Turn key={turn.seq} session={session} turn={turn} />
        ))}
      </ol>
      {lastTurn && lastTurn.sessionId === session.id && (
        <p className="hint" data-testid="vision-last-turn">
          {t('vision.lastTurn', { provider: lastTurn.providerId, model: lastTurn.model, ms: Math.round(lastTurn.usage.latencyMs) })}
          {lastTurn.budgetNote && <span className="warning"> {t('vision.budget', { note: lastTurn.budgetNote })}</span>}
        </p>
      )}
      <div ref={end} />
    </div>
  );
}

/** One exchange: the question with the images it added, then the answer with its latency and usage. */
function Turn({ session, turn }: { session: VisionSession; turn: VisionSession['turns'][number] }) {
  const t = useT();
  const prompt = splitTurnPrompt(turn);
  return (
    <li className="vision-turn" data-testid={`vision-turn-${turn.seq}`}>
      <div className="vision-bubble user">
        <div className="vision-who">{turn.kind === 'zoom' ? `${t('vision.you')} · ${t('vision.turn.zoom')}` : t('vision.you')}</div>
        {turn.imageIndexes.length > 0 && (
          <div className="vision-turn-images">
            {turn.imageIndexes.map((index) => (
              <SessionImage
                key={index}
                sessionId={session.id}
                index={index}
                label={session.images[index]?.label ?? `#${index}`}
                className={session.images[index] ? thumbClass(session.images[index].width, session.images[index].height) : undefined}
              />
            ))}
          </div>
        )}
        {/* Only what the person wrote: the engine's added instructions stay out of the bubble. */}
        <div className="vision-text">{prompt.user}</div>
      </div>
      <div className="vision-bubble assistant">
        <div className="vision-who">{t('vision.assistant')}</div>
        <div className="vision-answer" data-testid="vision-reply">
          <Markdown source={turn.seq === 0 ? replyWithoutSummary(turn.reply, session.summary) : turn.reply} />
        </div>
        <div className="vision-usage" data-testid="vision-turn-usage">
          {usageLine(t, turn.usage)}
        </div>
      </div>
    </li>
  );
}

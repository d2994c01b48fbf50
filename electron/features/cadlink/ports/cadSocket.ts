/**
 * The byte transport under the CAD client and the conformance verifier. The TCP adapter
 * (adapters/tcp/tcpSocket.ts) implements it with node:net; tests inject recording fakes.
 */
import type { CadEndpoint } from '../domain/protocol/cadErrors';

export type { CadEndpoint };

/** One open connection. Listeners are registered once, right after connecting. */
export interface CadSocket {
  /**
   * Queues bytes for sending. Returns false when the transport's buffer is full: the caller
   * must wait for the drain listener before writing more (back-pressure).
   */
  write(bytes: Uint8Array): boolean;
  onData(listener: (chunk: Uint8Array) => void): void;
  onDrain(listener: () => void): void;
  /** Called exactly once when the connection ends, with a short reason when it was not a clean close. */
  onClose(listener: (reason: string | undefined) => void): void;
  /** Ends the connection now (pending output is discarded); onClose still fires. */
  close(): void;
}

/**
 * Opens a connection. Rejects with AppError CAD_NOT_CONNECTED (retryable; data: host, port,
 * reason) when nothing listens, the host is unreachable, or timeoutMs passes.
 */
export type CadSocketFactory = (endpoint: CadEndpoint, options: { timeoutMs: number }) => Promise<CadSocket>;

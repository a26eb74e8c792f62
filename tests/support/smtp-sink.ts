import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll } from "vitest";

// A real SMTP server on loopback (smtp-server) that keeps every message it
// accepts, parsed (mailparser), with the raw headers. SMTP_URL points at it
// for the test file; `reject` makes it answer the next messages with a
// permanent or temporary failure.

export interface SmtpSink {
  received: ParsedMail[];
  /** Answer for the next DATA commands: null accepts. */
  reject: { code: number; message: string } | null;
  /** Waits until `count` messages have arrived (or a second has passed). */
  waitFor(count: number): Promise<ParsedMail[]>;
  port(): number;
}

export function useSmtpSink(): SmtpSink {
  let server: SMTPServer;
  const sink: SmtpSink = {
    received: [],
    reject: null,
    async waitFor(count) {
      for (let i = 0; i < 100 && sink.received.length < count; i++) await new Promise((r) => setTimeout(r, 10));
      return sink.received;
    },
    port: () => (server.server.address() as AddressInfo).port,
  };
  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      // No reverse DNS of 127.0.0.1 (this machine has no resolver to ask).
      disableReverseLookup: true,
      // The app's pooled transport keeps its connections open; at the end of
      // a file, close them at once instead of waiting 30 s (the default) for
      // the client to hang up.
      closeTimeout: 200,
      onData(stream, _session, callback) {
        simpleParser(stream)
          .then((mail) => {
            if (sink.reject) {
              const error = Object.assign(new Error(sink.reject.message), { responseCode: sink.reject.code });
              callback(error);
              return;
            }
            sink.received.push(mail);
            callback();
          })
          .catch(callback);
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    process.env.SMTP_URL = `smtp://127.0.0.1:${sink.port()}`;
    const { resetConfigForTests } = await import("~/config.server");
    resetConfigForTests();
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return sink;
}

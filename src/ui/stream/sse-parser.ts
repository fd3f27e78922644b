// Incremental parser of a server-sent-event stream read through fetch (EventSource hides `:ping` comments, and
// the client must see them to notice a missed keep-alive).

export interface SseMessage {
  readonly event: string;
  readonly data: string;
  readonly id?: string;
}

export class SseParser {
  private buffer = '';

  /** Feeds a chunk; returns the complete messages it finished. Comments and bare `retry:` blocks yield none. */
  feed(chunk: string): SseMessage[] {
    this.buffer += chunk.replace(/\r\n?/g, '\n');
    const messages: SseMessage[] = [];
    for (let end = this.buffer.indexOf('\n\n'); end >= 0; end = this.buffer.indexOf('\n\n')) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const message = parseBlock(block);
      if (message) messages.push(message);
    }
    return messages;
  }
}

function parseBlock(block: string): SseMessage | undefined {
  let event = 'message';
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id') id = value;
  }
  if (data.length === 0) return undefined;
  return id === undefined ? { event, data: data.join('\n') } : { event, data: data.join('\n'), id };
}

// Where a streamed watch publishes its pane for reads answered on another thread (the MCP server's
// engine thread publishes to the thread that reads stdin: mcp/engine/). The watch says until when
// a read would pass its checks at once; a read answered elsewhere still counts as a use.
import type { PaneObserver } from "../observe/pane/observer.js";

/** What a publisher asks of a published watch. */
export interface PublishedWatch {
  /**
   * Until when (wall clock, ms) a read of the pane would pass the watch's checks at once, asking
   * tmux nothing (Infinity: as long as nothing changes; 0: not now).
   */
  readVerdict(): number;
  /** A read was answered from the publication: the pane is in use (the hub evicts the least used). */
  used(): void;
}

export interface ReadPublisher {
  /** Publishes `observer` from now on; the function returned stops it (the watch ended). */
  add(observer: PaneObserver, watch: PublishedWatch): () => void;
}

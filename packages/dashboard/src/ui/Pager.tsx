/** Previous/next page buttons for a cursor-paged list; nothing at all when the list fits on one page. */
export function Pager({ label, page, hasPrevious, hasNext, onPrevious, onNext }: {
  label: string;
  /** The current page's number (1 for the first), shown between the buttons. */
  page?: number;
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
}) {
  if (!hasPrevious && !hasNext) return null;
  return (
    <nav aria-label={label} className="pager">
      {hasPrevious && (
        <button type="button" onClick={onPrevious}>
          Previous page
        </button>
      )}
      {page !== undefined && <span>Page {page}</span>}
      {hasNext && (
        <button type="button" onClick={onNext}>
          Next page
        </button>
      )}
    </nav>
  );
}

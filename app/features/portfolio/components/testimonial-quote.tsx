/** An approved testimonial as the site shows it (issue #40): the text, the rating, and the name as the client consented. */
export interface PublicTestimonial {
  id: number;
  text: string;
  rating: number;
  /** "Ada Lovelace, Analytical Ltd" (name and company) or "Ada" (first name only). */
  attribution: string;
}

/** One testimonial: a quote with its star rating (as text for screen readers) and attribution. */
export function TestimonialQuote({ testimonial }: { testimonial: PublicTestimonial }) {
  return (
    <figure className="rounded-card border border-slate-200 bg-white p-5">
      <p className="text-amber-700">
        <span className="sr-only">Rated {testimonial.rating} out of 5</span>
        <span aria-hidden="true">{"★".repeat(testimonial.rating) + "☆".repeat(5 - testimonial.rating)}</span>
      </p>
      <blockquote className="mt-2 text-slate-800">
        <p>“{testimonial.text}”</p>
      </blockquote>
      <figcaption className="mt-3 text-sm font-semibold text-slate-700">— {testimonial.attribution}</figcaption>
    </figure>
  );
}

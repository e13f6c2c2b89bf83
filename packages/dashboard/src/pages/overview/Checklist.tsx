/** Getting started: four steps that tick themselves from the organization's real data. */
import { Link } from '../../mode/links';

export interface ChecklistState {
  keyCreated: boolean;
  keyUsed: boolean;
  endpointRegistered: boolean;
  certificateIssued: boolean;
}

const STEPS: { id: keyof ChecklistState; label: string; to: string }[] = [
  { id: 'keyCreated', label: 'Create an API key', to: '/api-keys/certificate' },
  { id: 'keyUsed', label: 'Make a first API call with it', to: '/api-keys/certificate' },
  { id: 'endpointRegistered', label: 'Register a webhook endpoint', to: '/webhooks' },
  { id: 'certificateIssued', label: 'Issue a first certificate', to: '/certificates' },
];

export function Checklist({ state }: { state: ChecklistState }) {
  const done = STEPS.filter((step) => state[step.id]).length;
  return (
    <section className="card" aria-labelledby="getting-started">
      <h2 id="getting-started">Getting started ({done} of {STEPS.length} done)</h2>
      <ul className="checklist" data-testid="checklist">
        {STEPS.map((step) => (
          <li key={step.id} data-testid={`step-${step.id}`} data-done={state[step.id] ? 'true' : 'false'} className={state[step.id] ? 'done' : undefined}>
            <span aria-hidden="true">{state[step.id] ? '✔ ' : '○ '}</span>
            <Link to={step.to}>{step.label}</Link>
            <span className="visually-hidden">{state[step.id] ? ' (done)' : ' (to do)'}</span>
          </li>
        ))}
      </ul>
      <p>
        Read the API reference and guides at <a href="/docs">/docs</a>.
      </p>
    </section>
  );
}

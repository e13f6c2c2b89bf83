/** The jobs feature's face: what other features and the composition root may use of it (nothing else is imported from outside). */
export { assignedDriverResponse } from './jobs.schema';
export { presentAssignee } from './assignee.presenter';
export { createInMemoryJobRepository } from './in-memory-jobs';
export type { InMemoryDatabase } from './in-memory-jobs';
export { createAndDispatch } from './job-creation';
export type { JobCreationDeps } from './job-creation';
export { createJobLifecycle } from './job-lifecycle';
export type { JobLifecyclePorts, JobOutcome, JobRecord } from './job-lifecycle';
export { jobListFilter, jobListQuerySchema } from './job-list-query';
export type { JobListQuery } from './job-list-query';
export { jobReadsFastLane, partnerJobReads } from './job-reads.fast-lane';
export { createKnexJobRepository } from './job.repository';
export type { JobLookup, JobRepository } from './job.repository';
export { placeColumns } from './job.types';
export type { JobPlaceColumns, PlaceInput } from './job.types';
export { jobReadRoutes, partnerJobRoutes } from './partner-job.routes';
export { adminJobListAnswers, adminJobRead, jobCancelAnswers, jobEventStream, jobReadHeaders, jobStreamAnswers, jobWithEtag, partnerJobListAnswers, partnerJobReadAnswers } from './partner-job.contract';

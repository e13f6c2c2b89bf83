export { tearDownRunResources as default } from '@platform/test-kit';

import { createGroupApp } from '../platform/create-app.ts';
import { registerCreateProducts } from './create-products.ts';
import { registerDeleteProduct } from './delete-product.ts';
import { registerGetProduct } from './get-product.ts';
import { registerListProducts } from './list-products.ts';
import { registerUpdateProduct } from './update-product.ts';

/** /api/v1/products */
export const productsApp = createGroupApp();
registerCreateProducts(productsApp);
registerListProducts(productsApp);
registerGetProduct(productsApp);
registerUpdateProduct(productsApp);
registerDeleteProduct(productsApp);

-- CreateIndex
CREATE INDEX "DashboardHour_shopId_hour_clicks_sales_revenue_commission_pendingSales_idx" ON "DashboardHour"("shopId", "hour", "clicks", "sales", "revenue", "commission", "pendingSales");

